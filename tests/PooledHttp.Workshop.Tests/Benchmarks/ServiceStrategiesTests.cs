using System.Net.Http.Json;
using Microsoft.Extensions.DependencyInjection;
using PooledHttp.Content;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Server;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Benchmarks;

/// <summary>Chapter 09's strategies return what the runtime's own calls return.</summary>
public class ServiceStrategiesTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    [Theory]
    [InlineData(0)]
    [InlineData(250)]
    [InlineData(2_500)]
    public async Task Every_way_of_reading_the_books_counts_what_GetFromJsonAsync_returns(int count)
    {
        using var client = new HttpClient();
        Uri url = fixture.Server.Url($"books?count={count}");
        Book[] runtime = (await client.GetFromJsonAsync<Book[]>(url, PooledJson.Options))!;

        Assert.Equal(Book.Catalogue(count), runtime);
        Assert.Equal(runtime.Length, await BookJson.FromLeaseAsync(client, url));
        Assert.Equal(runtime.Length, await BookJson.ReadFromJsonAsync(client, url));
        Assert.Equal(runtime.Length, BookJson.FromMemory(Book.CatalogueJson(count)));
    }

    [Fact]
    public async Task The_typed_client_from_the_factory_reads_what_a_plain_client_reads_and_reuses_its_handler()
    {
        using ServiceProvider services = ServiceCalls.AddCatalogClient(new ServiceCollection()).BuildServiceProvider();
        Uri url = fixture.Server.BytesUrl(300_000, contentLength: true);
        using var plain = new HttpClient();

        Assert.Equal(await Downloads.GetByteArrayAsync(plain, url), await ServiceCalls.DownloadAsync(services, url));
        Assert.Equal(300_000, await ServiceCalls.DownloadArrayAsync(services, url));

        // Transient typed clients, one handler chain: two resolves give two clients and one connection pool.
        CatalogClient first = services.GetRequiredService<CatalogClient>(), second = services.GetRequiredService<CatalogClient>();
        Assert.NotSame(first, second);
        IHttpMessageHandlerFactory handlers = services.GetRequiredService<IHttpMessageHandlerFactory>();
        Assert.Same(handlers.CreateHandler(nameof(CatalogClient)), handlers.CreateHandler(nameof(CatalogClient)));
    }
}
