using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Measuring;

/// <summary>
/// <c>tools/RunBenchmark</c>: the series' benchmarks with BenchmarkDotNet's own command line, the servers in the
/// tool's process and the client in BenchmarkDotNet's. It asserts bytes, not times, so it runs beside the other tests;
/// the tool gets no run context from the test process.
/// </summary>
public class RunBenchmarkTests
{
    private static readonly string Root = Repository.RepositoryTests.FindRoot();

    /// <summary>The README's command: in Release, as BenchmarkDotNet requires of the assembly that holds the benchmarks.</summary>
    private static Task<ChildResult> RunAsync(params string[] arguments)
        => ChildProcess.RunAsync("dotnet", ["run", "-c", "Release", "--project", Path.Combine("tools", "RunBenchmark"), "--", .. arguments], TimeSpan.FromMinutes(10), ToolEnvironment.WithoutRunContext, workingDirectory: Root);

    [Fact]
    public async Task A_filtered_benchmark_runs_against_the_tools_server_with_the_memory_diagnoser()
    {
        string artifacts = Directory.CreateTempSubdirectory("pooledhttp-runbenchmark-").FullName;
        ChildResult run = await RunAsync("--filter", "*IntroDownload*", "--job", "short", "--artifacts", artifacts);

        Assert.True(run.ExitCode == 0, run.Output + run.Error);
        Assert.Contains("Local server on http://127.0.0.1:", run.Output, StringComparison.Ordinal);
        string report = File.ReadAllText(Directory.GetFiles(Path.Combine(artifacts, "results"), "*IntroDownload*-report-github.md").Single());
        // Both strategies reported with their Allocated column: the one-liner at least its 64 KiB body, the pooled read less
        // than that once warm. The downloads reached the tool's server and BenchmarkDotNet's memory diagnoser counted them.
        Assert.True(Allocated(report, "GetByteArrayAsync") >= 64, report);
        Assert.True(Allocated(report, "PooledRead") < 64, report);
    }

    /// <summary>The Allocated column of <paramref name="method"/>'s row in a GitHub report, in BenchmarkDotNet's KB (1,024 B).</summary>
    private static double Allocated(string report, string method)
    {
        System.Text.RegularExpressions.Match row = System.Text.RegularExpressions.Regex.Match(report, $@"\| {method} +\|[^\n]*?\|\s+(?<kb>[\d.]+) KB \|");
        Assert.True(row.Success, $"no row with an Allocated figure for {method}:\n{report}");
        return double.Parse(row.Groups["kb"].Value, System.Globalization.CultureInfo.InvariantCulture);
    }

    [Fact]
    public async Task A_filter_that_matches_nothing_is_a_failure_not_an_empty_table()
    {
        ChildResult run = await RunAsync("--filter", "*NoSuchBenchmark*");
        Assert.Equal(1, run.ExitCode);
        Assert.Contains("No benchmark ran", run.Error, StringComparison.Ordinal);
    }
}
