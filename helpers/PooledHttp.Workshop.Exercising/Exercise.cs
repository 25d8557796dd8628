namespace PooledHttp.Workshop.Exercising;

/// <summary>
/// One exercise, whole: which class the learner edits, the check (run against the learner's build in a check
/// process of its own), the goal the measurement must meet, the benchmark (a nested <c>Benchmark</c> class, run
/// by BenchmarkDotNet's child), which rows of the chapter's own run its bar is drawn beside, and the static
/// <c>Run</c> method the chapter's cell calls. Each exercise is one file in <c>Exercises/</c> and one line in
/// <see cref="All"/>.
/// </summary>
/// <param name="id">"E04": the chapter's number, which also orders the exercises.</param>
/// <param name="className">The class the learner edits, in namespace <see cref="LearnerCode.Namespace"/>; its file has the same name.</param>
/// <param name="notebook">The notebook whose results file receives the measured rows.</param>
/// <param name="title">What the learner is asked to do, in a line.</param>
public abstract class Exercise(string id, string className, string notebook, string title)
{
    /// <summary>
    /// Every exercise, in chapter order: the one list a new exercise joins. The check process finds the one it is
    /// asked for here, <c>tools/RunExercise</c> and the runner's summary count them from here.
    /// </summary>
    public static IReadOnlyList<Exercise> All { get; } =
    [
        new Exercise01(), new Exercise02(), new Exercise03(), new Exercise04(), new Exercise05(), new Exercise06(), new Exercise07(), new Exercise09(),
    ];

    /// <summary>"E04": the chapter's number, which also orders the exercises.</summary>
    public string Id { get; } = id;

    /// <summary>The class the learner edits, in namespace <see cref="LearnerCode.Namespace"/>; its file has the same name.</summary>
    public string ClassName { get; } = className;

    /// <summary>What the learner is asked to do, in a line.</summary>
    public string Title { get; } = title;

    /// <summary>The notebook whose results file receives the measured rows.</summary>
    public string Notebook { get; } = notebook;

    /// <summary>The file to open, relative to the repository root.</summary>
    public string File => $"exercises/{ClassName}.cs";

    /// <summary>The measured bytes per operation the exercise asks to stay under, if it sets one.</summary>
    public virtual long? AllocationTarget => null;

    /// <summary>What the measurement should show, in words; null when the exercise sets no goal beyond the check.</summary>
    public virtual string? Goal => AllocationTarget is { } target ? $"at most {ByteUnits.Format(target)} allocated per operation" : null;

    /// <summary>Whether a measured row meets <see cref="Goal"/>.</summary>
    public virtual bool Meets(MeasuredRow row)
    {
        ArgumentNullException.ThrowIfNull(row);
        return AllocationTarget is not { } target || row.AllocatedBytes <= target;
    }

    /// <summary>
    /// Runs the exercise as its chapter's cell does, with the servers that cell has, started here and
    /// stopped after: what <c>tools/RunExercise</c> calls from a terminal.
    /// </summary>
    public abstract Task<ExerciseResult> RunAloneAsync();

    /// <summary>
    /// In the check process: throws <see cref="ExerciseCheckFailedException"/> with a sentence for the learner when
    /// something is wrong, and returns what was checked when all held. A <see cref="NotImplementedException"/> from
    /// the stub means "not done yet".
    /// </summary>
    internal abstract Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken);

    /// <summary>In the check process: a value the check found that the measurement needs (exercise 01's array length); null for most.</summary>
    internal virtual int? Answer(Assembly learner) => null;

    /// <summary>The benchmark's parameters to measure with: what the notebook's call asked for, unless they depend on the learner's answer (exercise 01).</summary>
    internal virtual IReadOnlyDictionary<string, object[]> ParametersFor(ExerciseCheck check, IReadOnlyDictionary<string, object[]> asked) => asked;

    /// <summary>The chart of the learner's rows beside the chapter's: allocations per operation unless the exercise is about something else.</summary>
    internal virtual Plotly.NET.GenericChart Chart(string title, IEnumerable<MeasuredRow> rows) => Charts.Charts.Allocations(title, rows, label: Label);

    /// <summary>The rows of the chapter's own run to draw beside the learner's: same sizes, same variant.</summary>
    internal abstract IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours);

    /// <summary>How a learner's row is named on a chart.</summary>
    internal virtual string Label(MeasuredRow row) => row.Strategy == ExerciseBenchmark.Strategy ? $"yours ({Id}){(row.Variant.Length > 0 ? ", " + row.Variant : string.Empty)}" : row.Label;

    /// <summary><paramref name="run"/> on a <see cref="LocalServer"/> started for it and stopped after: <see cref="RunAloneAsync"/> for most exercises.</summary>
    protected static async Task<ExerciseResult> OnLocalServerAsync(Func<LocalServer, ExerciseResult> run)
    {
        ArgumentNullException.ThrowIfNull(run);
        await using LocalServer server = LocalServer.Start();
        return run(server);
    }

    /// <summary>
    /// Whether <paramref name="row"/> from the chapter's run measured what a row of <paramref name="yours"/> did:
    /// same size, same framing (a chapter row without a framing variant is chunked: the server's default),
    /// on the runtime the exercise ran on.
    /// </summary>
    protected static bool SameCase(MeasuredRow row, MeasurementResult yours)
        => row.RuntimeMajor == Environment.Version.Major
            && yours.Any(y => y.PayloadBytes == row.PayloadBytes && (row.Variant == y.Variant || (row.Variant.Length == 0 && y.Variant == nameof(Framing.Chunked))));
}
