using PooledHttp.Buffers;

namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 04's exercise: a pooled download of 16 MiB that allocates under 16 KiB.</summary>
public sealed class Exercise04() : Exercise("E04", Download.ClassName, "04-pooled-buffers",
    "download 16 MiB while allocating under 16 KiB")
{
    /// <summary>The learner's download, bound by the check and the benchmark.</summary>
    private static readonly LearnerMethod<DownloadExercise> Download = new("E04_PooledDownload", "DownloadAsync");

    /// <summary>
    /// 16 KiB: above what correct pooled reads measured (up to 9.2 KiB, docs/measurements.md), below a fresh
    /// 16 KiB read buffer per download.
    /// </summary>
    public override long? AllocationTarget => 16 * 1024;

    /// <summary>Checks the learner's <c>E04_PooledDownload.DownloadAsync</c>, then measures it downloading from <paramref name="server"/>.</summary>
    /// <param name="server">The notebook's server.</param>
    /// <param name="size">The body size to measure, in bytes.</param>
    /// <param name="framing">Chunked, or with a Content-Length.</param>
    public static ExerciseResult Run(LocalServer server, int size = 16 * 1024 * 1024, Framing framing = Framing.Chunked)
    {
        ArgumentNullException.ThrowIfNull(server);
        return ExerciseRunner.Run(new Exercise04(), server.Context, typeof(Benchmark), new Dictionary<string, object[]>
        {
            [nameof(Benchmark.Size)] = [size],
            [nameof(Benchmark.Framing)] = [framing],
        });
    }

    /// <inheritdoc />
    public override Task<ExerciseResult> RunAloneAsync() => OnLocalServerAsync(server => Run(server));

    /// <summary>The download checks, one download at a time.</summary>
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => DownloadChecks.CheckAsync(Download.Bind(learner), inFlight: 1, cancellationToken);

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(PooledSweep) && SameCase(r, yours));

    /// <summary>The learner's download, renting from the library's <see cref="BodyPool"/>.</summary>
    public class Benchmark : BodyExerciseBenchmark
    {
        private DownloadExercise _download = null!;

        /// <summary>Your download.</summary>
        [Benchmark]
        public Task<int> Yours() => _download(Client, Url, BodyPool.Shared, int.MaxValue, Ignore, CancellationToken.None);

        /// <inheritdoc />
        protected override void BindLearner() => _download = Download.Bind(Learner);
    }
}
