using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Checks;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Exercising;

/// <summary>
/// One exercise as the notebook runs it: its check (run in a check process of its own), which rows of the
/// chapter's own run its bar is drawn beside, and its goal. Each chapter's exercise derives from this, and its
/// static <c>Run</c> method is what the notebook calls.
/// </summary>
/// <param name="check">The exercise's check, which names its id and the class the learner edits.</param>
/// <param name="notebook">The notebook whose results file receives the measured rows.</param>
/// <param name="title">What the learner is asked to do, in a line.</param>
public abstract class Exercise(LearnerCheck check, string notebook, string title)
{
    /// <summary>"E04": the chapter's number, which also orders the exercises.</summary>
    public string Id { get; } = check.Id;

    /// <summary>The class the learner edits, in namespace <see cref="LearnerCode.Namespace"/>; its file has the same name.</summary>
    public string ClassName { get; } = check.ClassName;

    /// <summary>What the learner is asked to do, in a line.</summary>
    public string Title { get; } = title;

    /// <summary>The notebook whose results file receives the measured rows.</summary>
    public string Notebook { get; } = notebook;

    /// <summary>The file to open, relative to the repository root.</summary>
    public string File { get; } = check.File;

    /// <summary>The measured bytes per operation the exercise asks to stay under, if it sets one.</summary>
    public virtual long? AllocationTarget => null;

    /// <summary>What the measurement should show, in words; null when the exercise sets no goal beyond the check.</summary>
    public virtual string? Goal => AllocationTarget is { } target ? $"at most {Server.ByteUnits.Format(target)} allocated per operation" : null;

    /// <summary>Whether a measured row meets <see cref="Goal"/>.</summary>
    public virtual bool Meets(MeasuredRow row)
    {
        ArgumentNullException.ThrowIfNull(row);
        return AllocationTarget is not { } target || row.AllocatedBytes <= target;
    }

    /// <summary>The benchmark's parameters to measure with: what the notebook's call asked for, unless they depend on the learner's answer (exercise 01).</summary>
    internal virtual IReadOnlyDictionary<string, object[]> ParametersFor(ExerciseCheck check, IReadOnlyDictionary<string, object[]> asked) => asked;

    /// <summary>The chart of the learner's rows beside the chapter's: allocations per operation unless the exercise is about something else.</summary>
    internal virtual Plotly.NET.GenericChart Chart(string title, IEnumerable<MeasuredRow> rows) => Charts.Charts.Allocations(title, rows, label: Label);

    /// <summary>
    /// Every exercise, in chapter order: each concrete <see cref="Exercise"/> in this assembly, so adding
    /// an exercise here is adding its file.
    /// </summary>
    public static IReadOnlyList<Exercise> All { get; } =
    [
        .. typeof(Exercise).Assembly.GetTypes()
            .Where(t => t.IsSubclassOf(typeof(Exercise)) && !t.IsAbstract)
            .Select(t => (Exercise)Activator.CreateInstance(t)!)
            .OrderBy(e => e.Id, StringComparer.Ordinal),
    ];

    /// <summary>
    /// Runs the exercise as its chapter's cell does, with the servers that cell has, started here and
    /// stopped after: what <c>tools/RunExercise</c> calls from a terminal.
    /// </summary>
    public abstract Task<ExerciseResult> RunAloneAsync();

    /// <summary><paramref name="run"/> on a <see cref="LocalServer"/> started for it and stopped after: <see cref="RunAloneAsync"/> for most exercises.</summary>
    protected static async Task<ExerciseResult> OnLocalServerAsync(Func<LocalServer, ExerciseResult> run)
    {
        ArgumentNullException.ThrowIfNull(run);
        await using LocalServer server = LocalServer.Start();
        return run(server);
    }

    /// <summary>The rows of the chapter's own run to draw beside the learner's: same sizes, same variant.</summary>
    internal abstract IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours);

    /// <summary>
    /// Whether <paramref name="row"/> from the chapter's run measured what a row of <paramref name="yours"/> did:
    /// same size, same framing (a chapter row without a framing variant is chunked: the server's default),
    /// on the runtime the exercise ran on.
    /// </summary>
    protected static bool SameCase(MeasuredRow row, MeasurementResult yours)
        => row.RuntimeMajor == Environment.Version.Major
            && yours.Any(y => y.PayloadBytes == row.PayloadBytes && (row.Variant == y.Variant || (row.Variant.Length == 0 && y.Variant == nameof(Framing.Chunked))));

    /// <summary>How a learner's row is named on a chart.</summary>
    internal virtual string Label(MeasuredRow row) => row.Strategy == ExerciseBenchmark.Strategy ? $"yours ({Id}){(row.Variant.Length > 0 ? ", " + row.Variant : string.Empty)}" : row.Label;
}
