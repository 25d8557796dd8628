using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Measuring;

/// <summary>
/// <c>tools/RunBenchmark</c>: the series' benchmarks with BenchmarkDotNet's own command line, the servers in the
/// tool's process and the client in BenchmarkDotNet's. It benchmarks, so it runs alone.
/// </summary>
[Collection(SerialTests.Name)]
public class RunBenchmarkTests
{
    private static readonly string Root = Repository.RepositoryTests.FindRoot();

    private static readonly string Tool = Path.Combine(Root, "tools", "RunBenchmark", "bin",
        Path.GetFileName(Path.GetDirectoryName(Path.TrimEndingDirectorySeparator(AppContext.BaseDirectory)))!, "net10.0", "RunBenchmark.dll");

    private static Task<ChildResult> RunAsync(params string[] arguments)
        => ChildProcess.RunAsync("dotnet", [Tool, .. arguments], TimeSpan.FromMinutes(10), workingDirectory: Root);

    [Fact]
    public async Task A_filtered_benchmark_runs_against_the_tools_server_with_the_memory_diagnoser()
    {
        string artifacts = Directory.CreateTempSubdirectory("pooledhttp-runbenchmark-").FullName;
        ChildResult run = await RunAsync("--filter", "*IntroDownload*", "--job", "dry", "--artifacts", artifacts);

        Assert.True(run.ExitCode == 0, run.Output + run.Error);
        Assert.Contains("Local server on http://127.0.0.1:", run.Output, StringComparison.Ordinal);
        string report = File.ReadAllText(Directory.GetFiles(Path.Combine(artifacts, "results"), "*IntroDownload*-report-github.md").Single());
        // Both strategies reported, with the Allocated column: the downloads reached the server and were measured.
        Assert.Matches(@"\| GetByteArrayAsync \| 65536 \|[^\n]*\|\s+6\d\.\d\d KB \|", report);
        Assert.Matches(@"\| PooledRead +\| 65536 \|[^\n]*\|\s+\d\.\d\d KB \|", report);
    }

    [Fact]
    public async Task A_filter_that_matches_nothing_is_a_failure_not_an_empty_table()
    {
        ChildResult run = await RunAsync("--filter", "*NoSuchBenchmark*");
        Assert.Equal(1, run.ExitCode);
        Assert.Contains("No benchmark ran", run.Error, StringComparison.Ordinal);
    }
}
