using System.Net;
using System.Net.NetworkInformation;
using System.Net.Sockets;
using System.Text.Json;
using PooledHttp.Buffers;
using PooledHttp.Content;
using PooledHttp.Http;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Tests.Server;

public class LocalServerTests
{
    [Fact]
    public async Task Listens_on_loopback_only()
    {
        await using var server = LocalServer.Start();
        IPEndPoint[] mine = IPGlobalProperties.GetIPGlobalProperties().GetActiveTcpListeners().Where(e => e.Port == server.Port).ToArray();
        Assert.NotEmpty(mine);
        Assert.All(mine, e => Assert.True(IPAddress.IsLoopback(e.Address), $"listening on {e}"));
        Assert.Equal("127.0.0.1", server.BaseAddress.Host);
    }

    [Fact]
    public async Task Two_servers_at_once_get_different_ports()
    {
        var a = LocalServer.Start();
        await using var b = LocalServer.Start();
        Assert.NotEqual(a.Port, b.Port);
        using var client = new HttpClient();
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync(a.Url("status?code=200"))).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync(b.Url("status?code=200"))).StatusCode);

        // One stopped, the other still answers: they are two servers, not one seen twice.
        await a.DisposeAsync();
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync(b.Url("status?code=200"))).StatusCode);
    }

    [Fact]
    public async Task After_dispose_the_port_is_free_at_once()
    {
        var server = LocalServer.Start();
        int port = server.Port;
        using (var client = new HttpClient())
        {
            // Leave a keep-alive connection open on the server side: dispose must not wait for it.
            (await client.GetAsync(server.BytesUrl(1000, contentLength: true))).EnsureSuccessStatusCode();
            await server.DisposeAsync();
            await server.DisposeAsync(); // idempotent
        }

        using var rebind = new TcpListener(IPAddress.Loopback, port);
        rebind.Start(); // throws SocketException (address in use) if the server still held it
        rebind.Stop();
    }

    [Fact]
    public async Task Serves_64_concurrent_downloads()
    {
        await using var server = LocalServer.Start();
        using var client = new HttpClient { Timeout = TimeSpan.FromSeconds(60) };
        int[] lengths = await Task.WhenAll(Enumerable.Range(0, 64).Select(async i =>
        {
            using PooledBuffer body = await client.GetPooledAsync(server.BytesUrl(100_000 + i, contentLength: i % 2 == 0));
            Assert.Equal(-1, Payload.FirstMismatch(body.Span));
            return body.Length;
        }));
        Assert.Equal(Enumerable.Range(0, 64).Select(i => 100_000 + i), lengths);
    }

    [Fact]
    public async Task A_skipped_body_is_the_pattern_started_later_with_the_length_asked_for()
    {
        await using var server = LocalServer.Start();
        using var client = new HttpClient();
        byte[] plain = await client.GetByteArrayAsync(server.BytesUrl(1000, contentLength: true));
        byte[] skipped = await client.GetByteArrayAsync(server.BytesUrl(1000, contentLength: true, skip: 7));
        Assert.Equal(1000, skipped.Length);
        Assert.Equal(-1, Payload.FirstMismatch(skipped, offset: 7));
        Assert.Equal(0, Payload.FirstMismatch(skipped)); // another body than the plain one from its first byte
        Assert.Equal(plain.AsSpan(7).ToArray(), skipped.AsSpan(0, 993).ToArray());
        Assert.Equal(HttpStatusCode.BadRequest, (await client.GetAsync(server.Url($"bytes?size=10&skip={Payload.Period}"))).StatusCode);
    }

    [Fact]
    public async Task Books_endpoint_serves_the_deterministic_catalogue()
    {
        await using var server = LocalServer.Start();
        using var client = new HttpClient();
        using HttpResponseMessage response = await client.GetAsync(server.Url("books?count=250"));
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        Assert.NotNull(response.Content.Headers.ContentLength);
        Book[]? books = JsonSerializer.Deserialize<Book[]>(await response.Content.ReadAsStreamAsync(), PooledJson.Options);
        Assert.Equal(Book.Catalogue(250), books);
        Assert.Equal(250, books!.Select(b => b.Id).Distinct().Count());
    }

    [Theory]
    [InlineData("bytes", HttpStatusCode.BadRequest)]
    [InlineData("bytes?size=-1", HttpStatusCode.BadRequest)]
    [InlineData("bytes?size=abc", HttpStatusCode.BadRequest)]
    [InlineData("status?code=42", HttpStatusCode.BadRequest)]
    [InlineData("nowhere", HttpStatusCode.NotFound)]
    public async Task Bad_requests_get_a_clear_error(string pathAndQuery, HttpStatusCode expected)
    {
        await using var server = LocalServer.Start();
        using var client = new HttpClient();
        using HttpResponseMessage response = await client.GetAsync(server.Url(pathAndQuery));
        Assert.Equal(expected, response.StatusCode);
        Assert.False(string.IsNullOrWhiteSpace(await response.Content.ReadAsStringAsync()));
    }

    [Fact]
    public async Task Error_status_comes_with_a_body()
    {
        await using var server = LocalServer.Start();
        using var client = new HttpClient();
        using HttpResponseMessage response = await client.GetAsync(server.Url("status?code=503"));
        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        Assert.Contains("503", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }
}
