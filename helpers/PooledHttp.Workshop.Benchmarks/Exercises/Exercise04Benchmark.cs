using BenchmarkDotNet.Attributes;
using PooledHttp.Buffers;
using PooledHttp.Workshop.Checks;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>The learner's <c>E04_PooledDownload.DownloadAsync</c>, renting from the library's <see cref="BodyPool"/>.</summary>
public class Exercise04Benchmark : BodyExerciseBenchmark
{
    private DownloadExercise _download = null!;

    /// <summary>Your download.</summary>
    [Benchmark]
    public Task<int> Yours() => _download(Client, Url, BodyPool.Shared, int.MaxValue, Ignore, CancellationToken.None);

    /// <inheritdoc />
    protected override void BindLearner() => _download = LearnerCode.Bind<DownloadExercise>(Learner, "E04_PooledDownload", "DownloadAsync");
}
