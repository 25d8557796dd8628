using BenchmarkDotNet.Attributes;

namespace PooledHttp.Benchmarks;

/// <summary>
/// Chapter 07: one operation is a batch of <see cref="Concurrency"/> downloads of 1 MiB in flight at
/// once, naive against pooled. Allocations and collections per batch; the notebook divides by the
/// batch size.
/// </summary>
public class UnderLoad : DownloadBenchmark
{
    private const int BodySize = 1024 * 1024;
    private Uri _url = null!;

    /// <summary>Downloads in flight at once.</summary>
    [Params(1, 4, 16, 64)]
    public int Concurrency { get; set; }

    /// <summary><c>SendAsync</c> + <c>ReadAsByteArrayAsync</c>, <see cref="Concurrency"/> at once.</summary>
    [Benchmark(Baseline = true)]
    public Task<long> Naive() => BatchAsync(() => SendThenReadAsByteArrayAsync(_url));

    /// <summary>The helpers' pooled read, <see cref="Concurrency"/> at once.</summary>
    [Benchmark]
    public Task<long> Pooled() => BatchAsync(() => PooledReadAsync(_url));

    /// <inheritdoc />
    // With a Content-Length: chunked bodies from HttpListener add Nagle delays that would blur the times.
    protected override void Prepare() => _url = BenchmarkServer.Bytes(BodySize, contentLength: true);

    private async Task<long> BatchAsync(Func<Task<int>> download)
    {
        var batch = new Task<int>[Concurrency];
        for (int i = 0; i < batch.Length; i++)
        {
            batch[i] = download();
        }

        long total = 0;
        foreach (int length in await Task.WhenAll(batch).ConfigureAwait(false))
        {
            total += length;
        }

        return total;
    }
}
