using System.Diagnostics;
using BenchmarkDotNet.Characteristics;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains;
using BenchmarkDotNet.Toolchains.Results;

namespace PooledHttp.Workshop.Building;

/// <summary>
/// Builds BenchmarkDotNet's generated project the way a developer builds a project: the projects it
/// references (the benchmarks assembly, the servers, the checks and the library) build in their own <c>bin</c> and <c>obj</c> folders,
/// incrementally, so a run compiles only its generated program.
/// </summary>
/// <remarks>
/// <para>BenchmarkDotNet's own builder passes output paths (<c>ArtifactsPath</c>, <c>OutDir</c>) on the
/// command line, and command-line properties flow into referenced projects: every run compiled the kit
/// and the library again, from nothing, into the run's fresh folder, with a cold compiler
/// (<c>UseSharedCompilation=false</c>). What that costs per run is in <c>docs/measurements.md</c>.</para>
/// <para>The generated project's own <c>OutputPath</c> (<c>bin/&lt;configuration&gt;/&lt;tfm&gt;</c>) is where
/// BenchmarkDotNet's executor looks for the program, so no output path is passed.</para>
/// <para>Two builds of the same projects at once would write the same <c>obj</c> folder: two kernels measuring
/// at the same time, BenchmarkDotNet building several runtimes' projects in parallel, or the exercises' build
/// beside a benchmark's. Every build takes the workshop's one <see cref="BuildLock"/>.</para>
/// </remarks>
internal sealed class IncrementalBuilder(string? dotnet) : IBuilder
{
    /// <summary>Lines of the build's output a failure message keeps.</summary>
    private const int TailLines = 30;

    /// <inheritdoc />
    public BuildResult Build(GenerateResult generateResult, BuildPartition buildPartition, ILogger logger)
    {
        ArgumentNullException.ThrowIfNull(generateResult);
        ArgumentNullException.ThrowIfNull(buildPartition);
        ArgumentNullException.ThrowIfNull(logger);

        ArtifactsPaths paths = generateResult.ArtifactsPaths;
        string[] arguments = ["build", paths.ProjectFilePath, "-c", buildPartition.BuildConfiguration, "-nologo", "-v:q", "-m:1", "-p:UseSharedCompilation=true", .. JobArguments(buildPartition)];
        string command = $"{dotnet ?? "dotnet"} {string.Join(' ', arguments)}";
        var clock = Stopwatch.StartNew();
        using LockFile? held = TakeLock(paths, buildPartition.Timeout, logger, out string? busy);
        if (held is null)
        {
            return BuildResult.Failure(generateResult, busy!);
        }

        logger.WriteLineInfo($"// start {command}");
        int exitCode;
        string output;
        try
        {
            ChildResult built = ChildProcess.RunAsync(dotnet ?? "dotnet", arguments, buildPartition.Timeout, ChildEnvironment).GetAwaiter().GetResult();
            (exitCode, output) = (built.ExitCode, built.Output + built.Error);
        }
        catch (TimeoutException timeout)
        {
            return BuildResult.Failure(generateResult, $"{command}: {Tail(timeout.Message)}");
        }

        logger.WriteLineInfo($"// build took {clock.Elapsed.TotalSeconds:0.0} s and exited with {exitCode}");
        if (exitCode != 0)
        {
            return BuildResult.Failure(generateResult, $"{command} failed with exit code {exitCode}:{Environment.NewLine}{Tail(output)}");
        }

        return File.Exists(paths.ExecutablePath)
            ? BuildResult.Success(generateResult)
            : BuildResult.Failure(generateResult, $"The build succeeded but {paths.ExecutablePath} is missing: the generated project's output path no longer matches BenchmarkDotNet's.");
    }

    /// <summary>A named dotnet sees that root's runtimes only, as BenchmarkDotNet arranges for a custom dotnet.</summary>
    private IReadOnlyDictionary<string, string>? ChildEnvironment => dotnet is null ? null : new Dictionary<string, string> { ["DOTNET_MULTILEVEL_LOOKUP"] = "0" };

    /// <summary>The MSBuild arguments a job names (<see cref="MsBuildArgument"/>).</summary>
    private static IEnumerable<string> JobArguments(BuildPartition buildPartition)
    {
        Job job = buildPartition.RepresentativeBenchmarkCase.Job;
        IReadOnlyList<Argument> arguments = job.ResolveValue(InfrastructureMode.ArgumentsCharacteristic, buildPartition.Resolver) ?? [];
        return arguments.OfType<MsBuildArgument>().Select(a => a.TextRepresentation);
    }

    private static string Tail(string output)
        => string.Join(Environment.NewLine, output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).TakeLast(TailLines));

    /// <summary>The workshop's build lock, or null and the sentence that names the build that held it for longer than <paramref name="timeout"/>.</summary>
    private static LockFile? TakeLock(ArtifactsPaths paths, TimeSpan timeout, ILogger logger, out string? busy)
    {
        try
        {
            busy = null;
            return BuildLock.Take($"a benchmark's generated project ({Path.GetFileName(paths.ProjectFilePath)})", timeout, logger.WriteLineInfo);
        }
        catch (TimeoutException e)
        {
            busy = e.Message;
            return null;
        }
    }
}
