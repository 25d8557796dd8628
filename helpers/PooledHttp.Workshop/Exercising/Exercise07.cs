using PooledHttp.Buffers;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Checks;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 07's exercise: size a pool for 64 overlapping downloads of 8 MiB without a Content-Length.</summary>
public sealed class Exercise07() : Exercise(new Exercise07Check(), "07-under-load",
    "size a pool for 64 overlapping downloads of 8 MiB")
{
    /// <summary>
    /// The most a download may allocate at steady state: above the runtime's own few KiB per paced download, far
    /// below the 128 KiB per download that one 8 MiB array missed in a batch of 64 costs (docs/measurements.md).
    /// </summary>
    private const long TargetPerDownload = 16 * 1024;

    /// <inheritdoc />
    /// <remarks>Bytes alone: the Gen2 column is a sample of one iteration that holds a batch or two
    /// (<see cref="MeasuredRow.Gen2"/>), which can show none even for the naive read.</remarks>
    public override string? Goal => $"at most {ByteUnits.Format(TargetPerDownload)} allocated per download";

    /// <inheritdoc />
    public override bool Meets(MeasuredRow row)
    {
        ArgumentNullException.ThrowIfNull(row);
        return row.AllocatedBytes <= TargetPerDownload * Exercise07Check.InFlight;
    }

    /// <summary>Checks the learner's <c>E07_SizeThePool.CreatePool</c>, then measures batches of 64 paced downloads on it from <paramref name="server"/>.</summary>
    /// <param name="server">The notebook's server.</param>
    public static ExerciseResult Run(LocalServer server)
    {
        ArgumentNullException.ThrowIfNull(server);
        return ExerciseRunner.Run(new Exercise07(), server.Context, typeof(Exercise07Benchmark), new Dictionary<string, object[]> { [nameof(Exercise07Benchmark.Size)] = [Exercise07Check.BodySize] });
    }

    /// <inheritdoc />
    public override Task<ExerciseResult> RunAloneAsync() => OnLocalServerAsync(server => Run(server));

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(UnderLoad) && r.PayloadBytes == Exercise07Check.BodySize && r.RuntimeMajor == Environment.Version.Major);

    /// <inheritdoc />
    internal override Plotly.NET.GenericChart Chart(string title, IEnumerable<MeasuredRow> rows)
    {
        List<MeasuredRow> all = rows.ToList();
        return Charts.Charts.Grouped(title, "strategy", "KiB allocated per download", [.. all.Select(Label)], new Dictionary<string, double[]>
        {
            ["KiB per download"] = [.. all.Select(r => r.AllocatedBytes / (double)Exercise07Check.InFlight / 1024)],
        });
    }
}
