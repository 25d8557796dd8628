using BenchmarkDotNet.Environments;
using BenchmarkDotNet.Jobs;
using PooledHttp.Notebooks;

namespace PooledHttp.Measuring;

/// <summary>
/// Which .NET runtimes this machine can run benchmarks on. The sources measured .NET 8; where a
/// .NET 8 runtime is installed, a chapter measures it beside the current one in the same run.
/// </summary>
public static class Runtimes
{
    private static readonly Lazy<string> Installed = new(ListRuntimes);

    /// <summary>Whether a .NET 8 runtime (Microsoft.NETCore.App 8.x) is installed.</summary>
    public static bool HasNet8 => Installed.Value.Contains("Microsoft.NETCore.App 8.", StringComparison.Ordinal);

    /// <summary>
    /// The current profile's job on this runtime, plus the same job on .NET 8 when one is installed
    /// (the helpers also build for net8.0, so BenchmarkDotNet can build the benchmarks for it).
    /// </summary>
    public static IReadOnlyList<Job> CurrentAndNet8(Job job)
    {
        ArgumentNullException.ThrowIfNull(job);
        return HasNet8
            ? [job.WithId(job.Id + "-current"), job.WithRuntime(CoreRuntime.Core80).WithId(job.Id + "-net8")]
            : [job];
    }

    /// <summary>A sentence for the notebook's output: what will be measured, and why.</summary>
    public static string Describe()
        => HasNet8
            ? $"A .NET 8 runtime is installed: measuring on {Environment.Version.ToString(2)} (this runtime) and on .NET 8, in one run."
            : $"No .NET 8 runtime on this machine (`dotnet --list-runtimes` lists none), so only .NET {Environment.Version.ToString(2)} is measured; the .NET 8 figures shown beside it are the published ones.";

    private static string ListRuntimes()
    {
        try
        {
            // Once per process, from a Lazy: blocking here costs one short process start.
            return DotnetCli.RunAsync("--list-runtimes").GetAwaiter().GetResult().Output;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return string.Empty; // no dotnet on PATH: nothing else to measure on
        }
    }
}
