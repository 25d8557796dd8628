using BenchmarkDotNet.Attributes;
using Microsoft.Extensions.DependencyInjection;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 09, section 3: one 1 MiB download (Content-Length) through a plain, long-lived <see cref="HttpClient"/>
/// and through a typed client resolved per operation from a service provider, as a request handler of a
/// service gets it: a new <see cref="CatalogClient"/> and <see cref="HttpClient"/> each time, over the factory's
/// shared handler chain (its logging handlers included).
/// </summary>
public class ServiceClients : IDisposable
{
    private HttpClient _plain = null!;
    private ServiceProvider _services = null!;
    private Uri _url = null!;

    /// <summary>The body size: 1 MiB.</summary>
    [Params(1024 * 1024)]
    public int Size { get; set; }

    /// <summary>A plain client, <c>GetByteArrayAsync</c>.</summary>
    [Benchmark(Baseline = true)]
    public Task<int> Plain_GetByteArrayAsync() => Downloads.GetByteArrayAsync(_plain, _url);

    /// <summary>A plain client, the pooled read.</summary>
    [Benchmark]
    public Task<int> Plain_PooledRead() => Downloads.PooledReadAsync(_plain, _url);

    /// <summary>A typed client from the factory, <c>GetByteArrayAsync</c>.</summary>
    [Benchmark]
    public Task<int> TypedClient_GetByteArrayAsync() => ServiceCalls.DownloadArrayAsync(_services, _url);

    /// <summary>A typed client from the factory, the pooled read.</summary>
    [Benchmark]
    public Task<int> TypedClient_PooledRead() => ServiceCalls.DownloadAsync(_services, _url);

    /// <summary>Creates both clients.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _plain = new HttpClient();
        _services = ServiceCalls.AddCatalogClient(new ServiceCollection()).BuildServiceProvider();
        _url = BenchmarkServer.Bytes(Size, contentLength: true);
    }

    /// <summary>Disposes both.</summary>
    [GlobalCleanup]
    public void Dispose()
    {
        _plain?.Dispose();
        _services?.Dispose();
        GC.SuppressFinalize(this);
    }
}
