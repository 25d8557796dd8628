using System.Reflection;
using PooledHttp.Benchmarks;
using PooledHttp.Measuring;
using PooledHttp.Server;

namespace PooledHttp.Exercising;

/// <summary>Chapter 07's exercise: a download that stays correct, and out of Gen2, with 64 in flight.</summary>
public sealed class Exercise07 : Exercise
{
    /// <summary>Downloads in flight in the check, and by default in the measurement.</summary>
    private const int InFlight = 64;

    /// <inheritdoc />
    public override string Id => "E07";

    /// <inheritdoc />
    public override string ClassName => "E07_UnderLoad";

    /// <inheritdoc />
    public override string Title => "keep Gen2 at zero with 64 downloads in flight";

    /// <inheritdoc />
    public override string Notebook => "07-under-load";

    /// <inheritdoc />
    public override string? Goal => "no Gen2 collection";

    /// <inheritdoc />
    public override bool Meets(MeasuredRow row)
    {
        ArgumentNullException.ThrowIfNull(row);
        return row.Gen2 == 0;
    }

    /// <summary>Checks the learner's <c>E07_UnderLoad.DownloadAsync</c>, then measures batches of <paramref name="inFlight"/> 1 MiB downloads at once from <paramref name="server"/>.</summary>
    /// <param name="server">The notebook's server.</param>
    /// <param name="inFlight">Downloads in flight at once: one operation is one such batch, as in <see cref="UnderLoad"/>.</param>
    public static ExerciseResult Run(LocalServer server, int inFlight = InFlight)
    {
        ArgumentNullException.ThrowIfNull(server);
        ArgumentOutOfRangeException.ThrowIfLessThan(inFlight, 1);
        ExerciseParameters.Counts = [inFlight];
        return ExerciseRunner.Run(new Exercise07(), server.EnvironmentVariables, typeof(Exercise07Benchmark));
    }

    /// <inheritdoc />
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => DownloadChecks.CheckAsync(LearnerCode.Bind<DownloadExercise>(learner, ClassName, "DownloadAsync"), InFlight, cancellationToken);

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(UnderLoad) && SameCase(r, yours));

    /// <inheritdoc />
    internal override Charts.PlotlyChart Chart(string title, IEnumerable<MeasuredRow> rows)
    {
        List<MeasuredRow> all = rows.ToList();
        return Charts.Charts.Grouped(title, "strategy", "collections per 1,000 batches", [.. all.Select(Label)], new Dictionary<string, double[]>
        {
            ["Gen0"] = [.. all.Select(r => r.Gen0)],
            ["Gen2"] = [.. all.Select(r => r.Gen2)],
        });
    }
}
