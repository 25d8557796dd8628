using PooledHttp.Workshop.Building;
using PooledHttp.Workshop.Fetching;
using PooledHttp.Workshop.Benchmarks;
using BenchmarkDotNet.Environments;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Toolchains.DotNetCli;

namespace PooledHttp.Workshop.Measuring;

/// <summary>
/// The .NET runtimes a chapter measures side by side: .NET 8 (the runtime the sources measured), .NET 9,
/// and the one running the notebook. The older two come from the workshop's own dotnet root
/// (<see cref="PrivateDotnet"/>), fetched from NuGet the first time they are needed.
/// </summary>
public static class Runtimes
{
    /// <summary>The major versions compared: 8, 9 and the running one.</summary>
    public static IReadOnlyList<int> Compared { get; } = [.. new[] { 8, 9, Environment.Version.Major }.Distinct().Order()];

    /// <summary>
    /// <paramref name="job"/> once per compared runtime, each built and run by that runtime. A runtime that
    /// cannot be had is left out with a message, and the chapter measures the others.
    /// </summary>
    /// <param name="job">The measuring profile's job, usually <see cref="MeasurementProfile.CurrentJob"/>.</param>
    public static IReadOnlyList<Job> All(Job job) => Of(job, Compared);

    /// <summary>
    /// <paramref name="job"/> on .NET 8, the runtime the sources measured, and on the running one: for a chapter
    /// whose story starts where the sources started and ends on your runtime (08), without the step between.
    /// </summary>
    public static IReadOnlyList<Job> SourcesAndCurrent(Job job) => Of(job, [8, Environment.Version.Major]);

    /// <summary>
    /// Fetches the compared runtimes older than the running one into the workshop's dotnet root now, as the first
    /// <see cref="All"/> would: for setting a machine up ahead of the chapters (tools/PrefetchRuntimes, run by the devcontainer).
    /// </summary>
    /// <param name="log">Where to say what is happening; nothing is said when <see langword="null"/>.</param>
    /// <returns>The root; a runtime that could not be had is named in <see cref="PrivateDotnet.Problems"/>.</returns>
    public static PrivateDotnet Fetch(Action<string>? log = null) => PrivateDotnet.Ensure(Older, log);

    private static List<Job> Of(Job job, IReadOnlyList<int> majors)
    {
        ArgumentNullException.ThrowIfNull(job);
        PrivateDotnet dotnet = Fetch(Console.WriteLine);
        var jobs = new List<Job>();
        foreach (int major in Available(dotnet).Where(majors.Contains))
        {
            jobs.Add(OnRuntime(job, major, dotnet));
        }

        // The running runtime is built by the installed SDK, as in every other chapter (Measure gives it its toolchain).
        jobs.Add(job.WithId($"{job.Id}-net{Environment.Version.Major}"));
        return jobs;
    }

    /// <summary>A sentence for the notebook's output: which runtimes the jobs measure, and where they come from.</summary>
    public static string Describe(IReadOnlyList<Job> jobs)
    {
        ArgumentNullException.ThrowIfNull(jobs);
        PrivateDotnet dotnet = PrivateDotnet.Ensure([]);
        IEnumerable<string> fetched = Available(dotnet)
            .Where(m => jobs.Any(j => j.Environment.Runtime?.MsBuildMoniker == $"net{m}.0"))
            .Select(m => $".NET {dotnet.Versions[m]}");
        string missing = dotnet.Problems.Count == 0 ? string.Empty : " Not measured: " + string.Join(" ", dotnet.Problems);
        return $"Measuring on {string.Join(", ", fetched.Append($".NET {Environment.Version} (this runtime)"))}: {jobs.Count} runtime(s) in one run, the older ones from the workshop's own dotnet root ({dotnet.Root}).{missing}";
    }

    /// <summary>The compared runtimes older than the running one: the ones the workshop's dotnet root supplies.</summary>
    private static IEnumerable<int> Older => Compared.Where(m => m != Environment.Version.Major);

    /// <summary>The older runtimes <paramref name="dotnet"/> actually holds.</summary>
    private static IEnumerable<int> Available(PrivateDotnet dotnet) => Older.Where(dotnet.Versions.ContainsKey);

    /// <summary>The job on .NET <paramref name="major"/>, built and run through the workshop's dotnet root.</summary>
    private static Job OnRuntime(Job job, int major, PrivateDotnet dotnet)
    {
        string moniker = $"net{major}.0";
        var settings = new NetCoreAppSettings(moniker, runtimeFrameworkVersion: null, name: $".NET {major}.0", customDotNetCliPath: dotnet.DotnetPath);
        return job
            .WithRuntime(major switch
            {
                // BenchmarkDotNet's own runtimes where it has them: its SDK check refuses ones it does not recognise.
                8 => CoreRuntime.Core80,
                9 => CoreRuntime.Core90,
                _ => CoreRuntime.CreateForNewVersion(moniker, $".NET {major}.0"),
            })
            .WithToolchain(WorkshopToolchain.From(settings))
            .WithId($"{job.Id}-net{major}");
    }
}
