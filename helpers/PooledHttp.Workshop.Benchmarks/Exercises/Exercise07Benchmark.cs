using System.Buffers;
using BenchmarkDotNet.Attributes;
using PooledHttp.Workshop.Checks;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>One operation: 64 paced downloads of 8 MiB without a Content-Length at once, on the pool the learner's <c>E07_SizeThePool.CreatePool</c> returned.</summary>
public class Exercise07Benchmark : ExerciseBenchmark
{
    /// <summary>
    /// Batches run on the pool before BenchmarkDotNet runs any. How many of a batch's 64 bodies hold their arrays at the
    /// same moment depends on scheduling, and the pool only has as many arrays as the busiest batch so far needed: the
    /// batch BenchmarkDotNet counts bytes in comes after about eight others (one per iteration in the default profile),
    /// and twice in test runs it reached a peak none of them had, so the worked solution's pool allocated one 8 MiB
    /// array (8.22 MiB per batch). Twelve more make that rarer, not impossible. A pool whose budget cannot hold the
    /// batch refuses arrays back and misses in every batch, however many come first. Chapter 07's own rows
    /// (<see cref="UnderLoad"/>) have no such warm-up: the reference run's sized pool missed nothing there.
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
