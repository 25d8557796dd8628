using BenchmarkDotNet.Characteristics;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Environments;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains.Results;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Building;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Building;

/// <summary>
/// The builder the workshop gives BenchmarkDotNet: driven here through BenchmarkDotNet's own generator,
/// on a real benchmark class, as a run drives it.
/// </summary>
[Collection(SerialTests.Name)] // holds the machine-wide build lock with a short timeout, which a notebook's build would outlast
public sealed class IncrementalBuilderTests : IDisposable
{
    /// <summary>The resolver BenchmarkDotNet's runner gives a build partition (its own is internal).</summary>
    private static readonly IResolver Resolver = new CompositeResolver(EnvironmentResolver.Instance, InfrastructureResolver.Instance, EngineResolver.Instance);

    private readonly List<string> _generated = [];

    [Fact]
    public void A_run_compiles_its_generated_program_and_builds_the_benchmarks_in_their_own_folders()
    {
        (GenerateResult generated, BuildResult built) = GenerateAndBuild(TimeSpan.FromMinutes(5));

        Assert.True(built.IsBuildSuccess, built.ErrorMessage);
        Assert.True(File.Exists(generated.ArtifactsPaths.ExecutablePath), "the program BenchmarkDotNet's executor starts");
        // BenchmarkDotNet's own builder passed IntermediateOutputPath on the command line: the kit was then
        // compiled again, from nothing, under the run's folder on every run.
        string runObj = Path.Combine(generated.ArtifactsPaths.BuildArtifactsDirectoryPath, "obj");
        // (The generated program's own name starts with the benchmarks assembly's: "PooledHttp.Workshop.Benchmarks-Job-...".)
        string[] referenced = ["PooledHttp.dll", "PooledHttp.Workshop.Benchmarks.dll"];
        Assert.DoesNotContain(Directory.GetFiles(runObj, "*.dll", SearchOption.AllDirectories), f => referenced.Contains(Path.GetFileName(f)));
        string kitObj = Path.Combine(PooledHttp.Tests.Repository.RepositoryTests.FindRoot(), "helpers", "PooledHttp.Workshop.Benchmarks", "obj", "Release", $"net{Environment.Version.Major}.0", "PooledHttp.Workshop.Benchmarks.dll");
        Assert.True(File.Exists(kitObj), $"the benchmarks compile in their own obj folder: {kitObj}");
        // The program copies the benchmarks assembly beside itself, as for any project reference, and nothing of the notebook's host.
        Assert.True(File.Exists(Path.Combine(generated.ArtifactsPaths.BinariesDirectoryPath, "PooledHttp.Workshop.Benchmarks.dll")));
        Assert.False(File.Exists(Path.Combine(generated.ArtifactsPaths.BinariesDirectoryPath, "PooledHttp.Workshop.dll")), "the notebook's host is not part of a benchmark build");
    }

    [Fact]
    public void The_generated_project_is_in_a_folder_of_this_processs_own()
    {
        // BenchmarkDotNet's counter restarts at 1 in every process: two notebooks measuring from one build folder
        // both generated "...-quick-1", and the first to finish deleted the other's program.
        GenerateResult generated = Generate(TimeSpan.FromMinutes(5), out BuildPartition partition);
        string folder = Path.GetFileName(generated.ArtifactsPaths.BuildArtifactsDirectoryPath);

        Assert.Equal($"{partition.ProgramName}-p{Environment.ProcessId}", folder);
        Assert.StartsWith(generated.ArtifactsPaths.BuildArtifactsDirectoryPath, generated.ArtifactsPaths.ExecutablePath, StringComparison.Ordinal);
    }

    [Fact]
    public void A_program_that_does_not_compile_fails_the_build_with_the_compilers_message()
    {
        (GenerateResult generated, BuildResult built) = GenerateAndBuild(TimeSpan.FromMinutes(5), corrupt: true);

        Assert.False(built.IsBuildSuccess);
        Assert.Contains("error CS", built.ErrorMessage, StringComparison.Ordinal);
        Assert.Contains(generated.ArtifactsPaths.ProjectFilePath, built.ErrorMessage, StringComparison.Ordinal);
    }

    [Fact]
    public void A_build_waits_for_the_lock_and_fails_clearly_when_another_build_holds_it_too_long()
    {
        BuildResult built;
        using (BuildLock.Take("a test holding the lock", TimeSpan.FromSeconds(30)))
        {
            (_, built) = GenerateAndBuild(TimeSpan.FromSeconds(1));
        }

        Assert.False(built.IsBuildSuccess);
        Assert.Contains("another build held", built.ErrorMessage, StringComparison.Ordinal);
        Assert.Contains("a test holding the lock", built.ErrorMessage, StringComparison.Ordinal);
    }

    public void Dispose()
    {
        foreach (string folder in _generated.Where(Directory.Exists))
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private (GenerateResult Generated, BuildResult Built) GenerateAndBuild(TimeSpan timeout, bool corrupt = false)
    {
        GenerateResult generated = Generate(timeout, out BuildPartition partition);
        if (corrupt)
        {
            File.AppendAllText(generated.ArtifactsPaths.ProgramCodePath, "\nthis is not C#\n");
        }

        return (generated, WorkshopToolchain.ForThisRuntime.Builder.Build(generated, partition, new AccumulationLogger()));
    }

    private GenerateResult Generate(TimeSpan timeout, out BuildPartition partition)
    {
        IConfig config = ManualConfig.CreateEmpty()
            .AddJob(MeasurementProfile.Quick.WithToolchain(WorkshopToolchain.ForThisRuntime))
            .WithBuildTimeout(timeout);
        BenchmarkRunInfo info = BenchmarkConverter.TypeToBenchmarks(typeof(IntroDownload), config);
        partition = new BuildPartition([new BenchmarkBuildInfo(info.BenchmarksCases[0], info.Config, 0)], Resolver);

        GenerateResult generated = WorkshopToolchain.ForThisRuntime.Generator.GenerateProject(partition, new AccumulationLogger(), Path.Combine(Path.GetTempPath(), "pooledhttp-tests"));
        _generated.Add(generated.ArtifactsPaths.BuildArtifactsDirectoryPath);
        Assert.True(generated.IsGenerateSuccess, generated.GenerateException?.ToString());
        return generated;
    }
}
