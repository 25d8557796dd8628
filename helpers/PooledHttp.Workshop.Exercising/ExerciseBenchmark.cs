namespace PooledHttp.Workshop.Exercising;

/// <summary>
/// What the exercise benchmarks share: the learner's build, loaded in the benchmark process from the
/// path the notebook checked (<see cref="LearnerCode.LoadChecked"/>), and one client for the run. Their
/// parameters (sizes, framings, counts) are not attributes: the exercise's <c>Run</c> call passes the values to
/// <c>Measure.Run</c>, which makes one case per combination.
/// </summary>
public abstract class ExerciseBenchmark : DownloadBenchmark
{
    /// <summary>The strategy name of the learner's rows: every exercise benchmark's one method is called <c>Yours</c>.</summary>
    public const string Strategy = "Yours";

    /// <summary>The learner's build.</summary>
    protected Assembly Learner { get; private set; } = null!;

    /// <summary>A callback that takes the body and does nothing: a benchmark measures the download, not a check.</summary>
    protected static BodyReceived Ignore { get; } = static _ => { };

    /// <inheritdoc />
    protected override void Prepare()
    {
        Learner = LearnerCode.LoadChecked();
        PrepareExercise();
    }

    /// <summary>Binds the learner's method and builds the addresses.</summary>
    protected abstract void PrepareExercise();
}
