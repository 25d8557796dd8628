using BenchmarkDotNet.Attributes;
using PooledHttp.Buffers;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 07: one operation is a batch of <see cref="InFlight"/> downloads started together, each body sent
/// without a Content-Length in 16 writes 2 ms apart (<see cref="Pace.Network"/>), so that the batch is really
/// in flight at once. The naive read, the pooled read on the default pool, and on a pool sized for the batch.
/// Allocations and collections per batch; the notebook divides by the batch.
/// </summary>
public class UnderLoad : DownloadBenchmark
{
    /// <summary>Downloads in flight at once.</summary>
    public const int InFlight = 64;

    private Uri _url = null!;
    private BoundedArrayPool _sized = null!;

    /// <summary>The body of each download: 1 MiB (64 of them fit the default pool) and 8 MiB (without a Content-Length each ends in a 16 MiB array: 64 of them are four times its budget).</summary>
    [Params(1024 * 1024, 8 * 1024 * 1024)]
    public int Size { get; set; }

    /// <summary><c>SendAsync</c> + <c>ReadAsByteArrayAsync</c>, the whole batch at once.</summary>
    [Benchmark(Baseline = true)]
    public Task<long> Naive() => Downloads.BatchAsync(InFlight, () => Downloads.SendThenReadAsByteArrayAsync(Client, _url));

    /// <summary>The pooled read on the default pool, <see cref="BodyPool.Shared"/>.</summary>
    [Benchmark]
    public Task<long> Pooled() => Downloads.BatchAsync(InFlight, () => Downloads.PooledReadAsync(Client, _url));

    /// <summary>The pooled read on <c>BodyPool.Create(64, Size)</c>.</summary>
    [Benchmark]
    public Task<long> PooledSized() => Downloads.BatchAsync(InFlight, () => Downloads.PooledReadAsync(Client, _url, _sized));

    /// <inheritdoc />
    protected override void Prepare()
    {
        _url = BenchmarkServer.PacedBytes(Size, contentLength: false, Pace.Network);
        _sized = BodyPool.Create(InFlight, Size);
    }
}
