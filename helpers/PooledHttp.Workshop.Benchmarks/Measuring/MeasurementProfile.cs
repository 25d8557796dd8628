using BenchmarkDotNet.Jobs;
using Perfolizer.Horology;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// How hard to measure. The default is what a learner sees; the quick profile is for CI and
/// instructors' dry runs, picked by the runner's <c>--quick</c> (the run context's profile) or, in an editor, with
/// <c>POOLEDHTTP_PROFILE=quick</c>.
/// </summary>
/// <remarks>
/// Both profiles count allocations the same way: BenchmarkDotNet's memory diagnoser runs one more
/// iteration after the measured ones and divides what it allocated by its operations, so fewer or
/// shorter iterations make the times noisier, not the bytes of a strategy that allocates the same on
/// every call. A strategy that rents from the shared <c>ArrayPool</c> is the exception: the fewer
/// operations before that iteration, the more of the pool's warm-up misses it still counts; so is a
/// download longer than an iteration, whose one-off costs are shared by only a few operations.
/// </remarks>
public static class MeasurementProfile
{
    /// <summary>The variable a learner sets to pick the profile in an editor; the run context's profile, when set, wins.</summary>
    public const string Variable = "POOLEDHTTP_PROFILE";

    /// <summary>
    /// The default profile's iteration length: naming one makes BenchmarkDotNet's pilot aim at it instead of
    /// doubling towards a second, which halves a chapter's time for the same bytes; 200 ms keeps the whole series
    /// near a quarter of an hour (docs/measurements.md, "Measuring profiles and exercise goals").
    /// </summary>
    public static readonly TimeInterval DefaultIterationTime = TimeInterval.FromMilliseconds(200);


    /// <summary>
    /// The quick profile's iteration length. An operation longer than two thirds of it, such as a 64 MiB download
    /// (about 140 ms or more on the workshop machine), runs once per iteration without a pilot (BenchmarkDotNet's <c>EngineFactory</c>).
    /// </summary>
    public static readonly TimeInterval QuickIterationTime = TimeInterval.FromMilliseconds(100);

    /// <summary>"quick" when the run context or, without one, the variable says so, otherwise "default".</summary>
    public static string Current => string.Equals(Server.RunContext.Current.Profile ?? Environment.GetEnvironmentVariable(Variable), "quick", StringComparison.OrdinalIgnoreCase) ? "quick" : "default";

    /// <summary>The job for the current profile.</summary>
    public static Job CurrentJob => Current == "quick" ? Quick : Default;

    /// <summary>
    /// The job for rows a chapter compares by time: in the default profile, <see cref="Timing"/>; in the
    /// quick one, <see cref="Quick"/>, whose times the chapters call rough.
    /// </summary>
    public static Job CurrentTimingJob => Current == "quick" ? Quick : Timing;

    /// <summary>
    /// <paramref name="sizes"/> in the default profile; in the quick one, without
    /// <paramref name="leftOutWhenQuick"/>. Benchmarks take their sizes from here through
    /// <c>[ParamsSource]</c>, which BenchmarkDotNet reads in the notebook's process. The quick profile
    /// is a dry run, and leaving out sizes between others is where it saves most: each case costs at
    /// least a second.
    /// </summary>
    public static IEnumerable<int> Sizes(IEnumerable<int> sizes, params int[] leftOutWhenQuick)
        => Current == "quick" ? sizes.Except(leftOutWhenQuick) : sizes;

    /// <summary>
    /// The default profile with fifteen measured iterations instead of three, for rows compared by time:
    /// Student's t for a 99.9% interval is 31.6 with three iterations and 4.1 with fifteen.
    /// </summary>
    public static Job Timing { get; } = Job.ShortRun
        .WithIterationTime(DefaultIterationTime)
        .WithIterationCount(15)
        .WithId("timing");

    /// <summary>
    /// BenchmarkDotNet's ShortRun (one launch, 3 warm-up and 3 measured iterations) with iterations of 200 ms. Not
    /// fewer warm-ups: with two, S0's write stream (it rents from the shared pool) measured 129.87 KiB per 1 MiB
    /// download in one of two runs against 2.0 to 2.5 KiB with three (docs/measurements.md).
    /// </summary>
    public static Job Default { get; } = Job.ShortRun
        .WithIterationTime(DefaultIterationTime)
        .WithId("default");

    /// <summary>
    /// One warm-up and two measured iterations of 100 ms each, without measuring the loop's own overhead
    /// (it matters only to nanosecond times): times are rough, bytes mostly agree with the default profile.
    /// The warm-up stays because without it a strategy renting from the shared pool counts the pool's misses.
    /// </summary>
    public static Job Quick { get; } = Job.ShortRun
        .WithWarmupCount(1)
        .WithEvaluateOverhead(false)
        .WithIterationCount(2)
        .WithIterationTime(QuickIterationTime)
        .WithId("quick");
}
