using BenchmarkDotNet.Attributes;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 02, after S0: the two downloads most code starts with, over a range of body sizes, with
/// and without a Content-Length. Method names are S0's, so the published figures line up.
/// </summary>
public class NaiveDownload : DownloadBenchmark
{
    private Uri _url = null!;

    /// <summary>The body size in bytes: 16 KiB to 16 MiB, S0's 1 MiB in the middle.</summary>
    [ParamsSource(nameof(Sizes))]
    public int Size { get; set; }

    /// <summary>
    /// The sizes measured, in both profiles: below the large object heap's threshold, S0's 1 MiB, and 16 MiB; three
    /// sizes on three runtimes is what fits the series' time (docs/measurements.md, "Measuring profiles").
    /// </summary>
    public static IEnumerable<int> Sizes => MeasurementProfile.Sizes([16 * 1024, 1024 * 1024, 16 * 1024 * 1024]);

    /// <summary>Chunked (S0's server) or with a Content-Length.</summary>
    [Params(Framing.Chunked, Framing.ContentLength)]
    public Framing Framing { get; set; }

    /// <summary>
    /// <c>SendAsync</c> with the default <c>ResponseContentRead</c>, which buffers the whole body inside the
    /// content, then <c>ReadAsByteArrayAsync</c>, which copies it into the array you get.
    /// </summary>
    [Benchmark(Baseline = true)]
    public Task<int> Client_Send_GetByteArrayAsync() => Downloads.SendThenReadAsByteArrayAsync(Client, _url);

    /// <summary><c>GetByteArrayAsync</c>: streams the body into one array, sized exactly when the length is known.</summary>
    [Benchmark]
    public Task<int> GetByteArrayAsync() => Downloads.GetByteArrayAsync(Client, _url);

    /// <inheritdoc />
    protected override void Prepare() => _url = BenchmarkServer.Bytes(Size, contentLength: Framing == Framing.ContentLength);
}
