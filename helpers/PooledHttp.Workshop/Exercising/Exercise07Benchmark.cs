using BenchmarkDotNet.Attributes;
using PooledHttp.Benchmarks;
using PooledHttp.Buffers;

namespace PooledHttp.Exercising;

/// <summary>One operation: <see cref="Concurrency"/> downloads of 1 MiB with a Content-Length at once, each by the learner's <c>E07_UnderLoad.DownloadAsync</c>.</summary>
public class Exercise07Benchmark : ExerciseBenchmark
{
    private const int BodySize = 1024 * 1024; // as chapter 07's UnderLoad
    private DownloadExercise _download = null!;
    private Uri _url = null!;

    /// <summary>Downloads in flight at once (named as in <see cref="UnderLoad"/>, so the rows line up).</summary>
    [ParamsSource(nameof(CountValues))]
    public int Concurrency { get; set; }

    /// <summary>A batch of your downloads.</summary>
    [Benchmark]
    public async Task<long> Yours()
    {
        var batch = new Task<int>[Concurrency];
        for (int i = 0; i < batch.Length; i++)
        {
            batch[i] = _download(Client, _url, BodyPool.Shared, int.MaxValue, Ignore, CancellationToken.None);
        }

        long total = 0;
        foreach (int length in await Task.WhenAll(batch).ConfigureAwait(false))
        {
            total += length;
        }

        return total;
    }

    /// <inheritdoc />
    protected override void PrepareExercise()
    {
        _download = LearnerCode.Bind<DownloadExercise>(Learner, "E07_UnderLoad", "DownloadAsync");
        _url = BenchmarkServer.Bytes(BodySize, contentLength: true);
    }
}
