using BenchmarkDotNet.Attributes;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Notebook 00's pair: the runtime's one-line download against the helpers' pooled read, for a
/// 64 KiB chunked body. Small on purpose: it shows the pipeline working, not the whole story.
/// </summary>
public class IntroDownload : DownloadBenchmark
{
    private Uri _url = null!;

    /// <summary>The body size in bytes.</summary>
    [Params(64 * 1024)]
    public int Size { get; set; }

    /// <summary><c>GetByteArrayAsync</c>: a new array of the body's size every time.</summary>
    [Benchmark(Baseline = true)]
    public Task<int> GetByteArrayAsync() => Downloads.GetByteArrayAsync(Client, _url);

    /// <summary>The helpers' pooled read: the body lands in a rented array that goes back on dispose.</summary>
    [Benchmark]
    public Task<int> PooledRead() => Downloads.PooledReadAsync(Client, _url);

    /// <inheritdoc />
    protected override void Prepare() => _url = BenchmarkServer.Bytes(Size);
}
