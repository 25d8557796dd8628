using System.Buffers;
using BenchmarkDotNet.Attributes;
using PooledHttp.Workshop.Checks;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>One operation: 64 paced downloads of 8 MiB without a Content-Length at once, on the pool the learner's <c>E07_SizeThePool.CreatePool</c> returned.</summary>
public class Exercise07Benchmark : ExerciseBenchmark
{
    /// <summary>
    /// Batches run on the pool before BenchmarkDotNet measures. A body without a Content-Length grows through several
    /// array sizes, and how many bodies hold an array of one size at the same moment depends on scheduling; the default
    /// profile's warm-up iterations hold one batch each, and a measured batch that reached a peak none of them had made
    /// the worked solution's pool allocate one 8 MiB array (8.22 MiB per batch, twice in test runs). A pool too small
    /// for the batch still misses in every batch, however many come first.
    /// </summary>
    private const int WarmUpBatches = 12;

    private Func<Task<int>> _one = null!;

    /// <summary>The body size (named as in <see cref="UnderLoad"/>, so the rows line up).</summary>
    public int Size { get; set; }

    /// <summary>A batch of downloads on your pool.</summary>
    [Benchmark]
    public Task<long> Yours() => Downloads.BatchAsync(UnderLoad.InFlight, _one);

    /// <inheritdoc />
    protected override void PrepareExercise()
    {
        ArrayPool<byte> pool = LearnerCode.Bind<Func<int, int, ArrayPool<byte>>>(Learner, "E07_SizeThePool", "CreatePool")(UnderLoad.InFlight, Size);
        Uri url = BenchmarkServer.PacedBytes(Size, contentLength: false, Pace.Network);
        _one = () => Downloads.PooledReadAsync(Client, url, pool); // built once: no delegate per batch
        for (int batch = 0; batch < WarmUpBatches; batch++)
        {
            Downloads.BatchAsync(UnderLoad.InFlight, _one).GetAwaiter().GetResult();
        }
    }
}
