using BenchmarkDotNet.Attributes;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Buffers;

namespace PooledHttp.Workshop.Exercising;

/// <summary>The learner's <c>E04_PooledDownload.DownloadAsync</c>, renting from the library's <see cref="BodyPool"/>.</summary>
public class Exercise04Benchmark : ExerciseBenchmark
{
    private DownloadExercise _download = null!;
    private Uri _url = null!;

    /// <summary>The body size in bytes.</summary>
    [ParamsSource(nameof(SizeValues))]
    public int Size { get; set; }

    /// <summary>Chunked, or with a Content-Length.</summary>
    [ParamsSource(nameof(FramingValues))]
    public Framing Framing { get; set; }

    /// <summary>Your download.</summary>
    [Benchmark]
    public Task<int> Yours() => _download(Client, _url, BodyPool.Shared, int.MaxValue, Ignore, CancellationToken.None);

    /// <inheritdoc />
    protected override void PrepareExercise()
    {
        _download = LearnerCode.Bind<DownloadExercise>(Learner, "E04_PooledDownload", "DownloadAsync");
        _url = BenchmarkServer.Bytes(Size, contentLength: Framing == Framing.ContentLength);
    }
}
