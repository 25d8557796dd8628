using PooledHttp.Buffers;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Checks;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 02's exercise: the read loop S0's single <c>ReadAsync</c> should have been.</summary>
public sealed class Exercise02() : Exercise(new Exercise02Check(), "02-the-5mb-download",
    "write the read loop S0's single ReadAsync should have been")
{
    /// <summary>
    /// Checks the learner's <c>E02_ReadLoop.ReadAsync</c>, then measures S0's known-length download with
    /// it: a Content-Length, one rented array of that length, the learner's loop filling it.
    /// </summary>
    /// <param name="server">The notebook's server.</param>
    /// <param name="size">The body size to measure, in bytes.</param>
    public static ExerciseResult Run(LocalServer server, int size = 1024 * 1024)
    {
        ArgumentNullException.ThrowIfNull(server);
        return ExerciseRunner.Run(new Exercise02(), server.Context, typeof(Exercise02Benchmark), new Dictionary<string, object[]>
        {
            [nameof(Exercise02Benchmark.Size)] = [size],
            [nameof(Exercise02Benchmark.Framing)] = [Framing.ContentLength],
        });
    }

    /// <inheritdoc />
    public override Task<ExerciseResult> RunAloneAsync() => OnLocalServerAsync(server => Run(server));

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(NaiveDownload) && SameCase(r, yours));

    /// <inheritdoc />
    internal override string Label(MeasuredRow row) => row.Strategy == ExerciseBenchmark.Strategy ? "S0's known length, your loop" : row.Label;
}
