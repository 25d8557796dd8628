using BenchmarkDotNet.Attributes;
using PooledHttp.Benchmarks;
using PooledHttp.Buffers;

namespace PooledHttp.Exercising;

/// <summary>One operation: <see cref="Concurrency"/> downloads of 1 MiB with a Content-Length at once, each by the learner's <c>E07_UnderLoad.DownloadAsync</c>.</summary>
public class Exercise07Benchmark : ExerciseBenchmark
{
    private Func<Task<int>> _one = null!;

    /// <summary>Downloads in flight at once (named as in <see cref="UnderLoad"/>, so the rows line up).</summary>
    [ParamsSource(nameof(CountValues))]
    public int Concurrency { get; set; }

    /// <summary>A batch of your downloads.</summary>
    [Benchmark]
    public Task<long> Yours() => Downloads.BatchAsync(Concurrency, _one);

    /// <inheritdoc />
    protected override void PrepareExercise()
    {
        DownloadExercise download = LearnerCode.Bind<DownloadExercise>(Learner, "E07_UnderLoad", "DownloadAsync");
        Uri url = BenchmarkServer.Bytes(UnderLoad.BodySize, contentLength: true);
        _one = () => download(Client, url, BodyPool.Shared, int.MaxValue, Ignore, CancellationToken.None); // built once: no delegate per batch
    }
}
