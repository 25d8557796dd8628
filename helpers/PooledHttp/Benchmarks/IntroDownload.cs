using BenchmarkDotNet.Attributes;
using PooledHttp.Buffers;
using PooledHttp.Http;

namespace PooledHttp.Benchmarks;

/// <summary>
/// Notebook 00's pair: the runtime's one-line download against the helpers' pooled read, for a
/// 64 KiB chunked body. Small on purpose: it shows the pipeline working, not the whole story.
/// </summary>
public class IntroDownload : IDisposable
{
    private HttpClient _client = null!;
    private Uri _url = null!;

    /// <summary>The body size in bytes.</summary>
    [Params(64 * 1024)]
    public int Size { get; set; }

    /// <summary>One client for the whole run, as real code would have.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _client = new HttpClient();
        _url = BenchmarkServer.Bytes(Size);
    }

    /// <summary>Disposes the client.</summary>
    [GlobalCleanup]
    public void Dispose()
    {
        _client.Dispose();
        GC.SuppressFinalize(this);
    }

    /// <summary><c>GetByteArrayAsync</c>: a new array of the body's size every time.</summary>
    [Benchmark(Baseline = true)]
    public async Task<int> GetByteArrayAsync() => (await _client.GetByteArrayAsync(_url).ConfigureAwait(false)).Length;

    /// <summary>The helpers' pooled read: the body lands in a rented array that goes back on dispose.</summary>
    [Benchmark]
    public async Task<int> PooledRead()
    {
        using PooledBuffer body = await _client.GetPooledAsync(_url).ConfigureAwait(false);
        return body.Length;
    }
}
