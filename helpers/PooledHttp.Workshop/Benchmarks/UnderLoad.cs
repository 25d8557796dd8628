using BenchmarkDotNet.Attributes;

namespace PooledHttp.Benchmarks;

/// <summary>
/// Chapter 07: one operation is a batch of <see cref="Concurrency"/> downloads of 1 MiB in flight at
/// once, naive against pooled. Allocations and collections per batch; the notebook divides by the
/// batch size.
/// </summary>
public class UnderLoad : DownloadBenchmark
{
    /// <summary>The body of each download: S0's 1 MiB.</summary>
    internal const int BodySize = 1024 * 1024;
    private Uri _url = null!;

    /// <summary>Downloads in flight at once.</summary>
    [Params(1, 4, 16, 64)]
    public int Concurrency { get; set; }

    /// <summary><c>SendAsync</c> + <c>ReadAsByteArrayAsync</c>, <see cref="Concurrency"/> at once.</summary>
    [Benchmark(Baseline = true)]
    public Task<long> Naive() => Downloads.BatchAsync(Concurrency, () => SendThenReadAsByteArrayAsync(_url));

    /// <summary>The helpers' pooled read, <see cref="Concurrency"/> at once.</summary>
    [Benchmark]
    public Task<long> Pooled() => Downloads.BatchAsync(Concurrency, () => PooledReadAsync(_url));

    /// <inheritdoc />
    // With a Content-Length: chunked bodies from HttpListener add Nagle delays that would blur the times.
    protected override void Prepare() => _url = BenchmarkServer.Bytes(BodySize, contentLength: true);
}
