using PooledHttp.Workshop.Benchmarks;

namespace PooledHttp.Workshop.Exercising;

/// <summary>
/// The values an exercise's <c>Run</c> call was given, read by the exercise benchmarks'
/// <c>[ParamsSource]</c> members. BenchmarkDotNet reads them in the notebook's process when it plans
/// the run and writes them into the benchmark program as constants, so the benchmark process needs
/// nothing from here. Set only by the <c>Run</c> calls, one at a time, as a notebook runs its cells.
/// </summary>
public static class ExerciseParameters
{
    /// <summary>Body or array sizes, in bytes.</summary>
    public static IReadOnlyList<int> Sizes { get; internal set; } = [1024 * 1024];

    /// <summary>How the server frames the body.</summary>
    public static IReadOnlyList<Framing> Framings { get; internal set; } = [Framing.ContentLength];

    /// <summary>Downloads in flight at once (exercise 07), or books in the response (exercise 03).</summary>
    public static IReadOnlyList<int> Counts { get; internal set; } = [1];
}
