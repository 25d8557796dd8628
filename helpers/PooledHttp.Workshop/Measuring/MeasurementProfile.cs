using BenchmarkDotNet.Jobs;

namespace PooledHttp.Measuring;

/// <summary>
/// How hard to measure. The default is what a learner sees; the quick profile is for CI and
/// instructors' dry runs, picked with <c>POOLEDHTTP_PROFILE=quick</c> (the runner's <c>--quick</c>).
/// </summary>
/// <remarks>
/// Both profiles measure allocations the same way: BenchmarkDotNet's memory diagnoser counts them
/// over whole iterations after warm-up, so fewer iterations make the times noisier, not the bytes.
/// </remarks>
public static class MeasurementProfile
{
    /// <summary>The variable that picks the profile.</summary>
    public const string Variable = "POOLEDHTTP_PROFILE";

    /// <summary>"quick" when the variable says so, otherwise "default".</summary>
    public static string Current => string.Equals(Environment.GetEnvironmentVariable(Variable), "quick", StringComparison.OrdinalIgnoreCase) ? "quick" : "default";

    /// <summary>The job for the current profile.</summary>
    public static Job CurrentJob => Current == "quick" ? Quick : Default;

    /// <summary>Like BenchmarkDotNet's ShortRun: one launch, 3 warm-up and 3 measured iterations.</summary>
    public static Job Default { get; } = Job.ShortRun.WithId("default");

    /// <summary>One warm-up and two measured iterations of about 100 ms each: times are rough, bytes are not.</summary>
    public static Job Quick { get; } = Job.ShortRun
        .WithWarmupCount(1)
        .WithIterationCount(2)
        .WithIterationTime(Perfolizer.Horology.TimeInterval.FromMilliseconds(100))
        .WithId("quick");
}
