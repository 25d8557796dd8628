using System.Reflection;
using BenchmarkDotNet.Attributes;
using PooledHttp.Workshop.Benchmarks;

namespace PooledHttp.Workshop.Exercising;

/// <summary>
/// What the exercise benchmarks share: the learner's build, loaded in the benchmark process from the
/// path the notebook checked (<see cref="LearnerCode.LoadChecked"/>), and one client for the run.
/// </summary>
public abstract class ExerciseBenchmark : DownloadBenchmark
{
    /// <summary>The strategy name of the learner's rows: every exercise benchmark's one method is called <c>Yours</c>.</summary>
    public const string Strategy = "Yours";

    /// <summary>The learner's build.</summary>
    protected Assembly Learner { get; private set; } = null!;

    /// <summary>A callback that takes the body and does nothing: a benchmark measures the download, not a check.</summary>
    protected static BodyReceived Ignore { get; } = static _ => { };

    /// <summary>The sizes the notebook asked for.</summary>
    public static IEnumerable<int> SizeValues => ExerciseParameters.Sizes;

    /// <summary>The framings the notebook asked for.</summary>
    public static IEnumerable<Framing> FramingValues => ExerciseParameters.Framings;

    /// <summary>The counts the notebook asked for.</summary>
    public static IEnumerable<int> CountValues => ExerciseParameters.Counts;

    /// <inheritdoc />
    protected override void Prepare()
    {
        Learner = LearnerCode.LoadChecked();
        PrepareExercise();
    }

    /// <summary>Binds the learner's method and builds the addresses.</summary>
    protected abstract void PrepareExercise();
}
