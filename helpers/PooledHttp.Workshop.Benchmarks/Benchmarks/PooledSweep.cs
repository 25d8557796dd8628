using BenchmarkDotNet.Attributes;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 04's sweep: the naive download against the helpers' pooled read from 1 KiB to 64 MiB,
/// chunked. The naive cost grows with the body; the pooled one should not.
/// </summary>
public class PooledSweep : DownloadBenchmark
{
    private Uri _url = null!;

    /// <summary>The body size in bytes, 1 KiB to 64 MiB (the largest array <see cref="Buffers.BodyPool"/> keeps).</summary>
    [ParamsSource(nameof(Sizes))]
    public int Size { get; set; }

    /// <summary>The sizes measured; the quick profile leaves out 16 KiB and 256 KiB.</summary>
    public static IEnumerable<int> Sizes => MeasurementProfile.Sizes([1024, 16 * 1024, 256 * 1024, 1024 * 1024, 4 * 1024 * 1024, 16 * 1024 * 1024, 64 * 1024 * 1024], leftOutWhenQuick: [16 * 1024, 256 * 1024]);

    /// <summary><c>SendAsync</c> (body buffered) then <c>ReadAsByteArrayAsync</c> (copied out).</summary>
    [Benchmark(Baseline = true)]
    public Task<int> Client_Send_GetByteArrayAsync() => Downloads.SendThenReadAsByteArrayAsync(Client, _url);

    /// <summary>The helpers' pooled read.</summary>
    [Benchmark]
    public Task<int> PooledRead() => Downloads.PooledReadAsync(Client, _url);

    /// <inheritdoc />
    protected override void Prepare() => _url = BenchmarkServer.Bytes(Size);
}
