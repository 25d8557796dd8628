using System.Text.Json.Nodes;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Tests.Support;
using Xunit.Abstractions;

namespace PooledHttp.Tests.Notebooks;

/// <summary>
/// Every notebook of the series runs headlessly with the quick profile, with reports, a chart and its results file.
/// The series is dealt into <see cref="Shards"/> test classes, each a test collection of its own, so that that many
/// notebooks can run at once (xunit runs one collection's tests one after another); the shards start before the other
/// collections (<see cref="NotebookShardsFirst"/>). Builds they share take the workshop's one build lock; each notebook
/// is a runner process with an output folder of its own.
/// </summary>
public abstract class NotebookRun(ITestOutputHelper output)
{
    /// <summary>
    /// How many notebooks may run at once. A notebook keeps about one core and a half busy (BenchmarkDotNet's process
    /// downloading, the server answering, cells compiling); with six tests at once on two cores everything took three
    /// times as long and nothing was gained (xunit.runner.json lets three tests run at once).
    /// </summary>
    public const int Shards = 3;

    private static readonly string Root = Repository.RepositoryTests.FindRoot();

    /// <summary>The series' notebooks, in order.</summary>
    public static string[] Series() => Directory.EnumerateFiles(Path.Combine(Root, "notebooks"), "*.ipynb")
        .Select(path => Path.GetFileName(path)).Order(StringComparer.Ordinal).ToArray();

    /// <summary>
    /// Seconds each notebook's test took, run one at a time on the 2-core workshop machine (2026-11-26), to deal the
    /// shards even: dealt in turn, one shard got 02, 04a and 07, two fifths of the series' time. Only the deal uses
    /// them; a notebook not listed weighs <see cref="UnlistedSeconds"/>.
    /// </summary>
    private static readonly Dictionary<string, double> MeasuredSeconds = new(StringComparer.Ordinal)
    {
        ["00-getting-started.ipynb"] = 16.5,
        ["01-why-allocations-hurt.ipynb"] = 46.9,
        ["02-the-5mb-download.ipynb"] = 74.2,
        ["03-httpcompletionoption.ipynb"] = 36.0,
        ["04-pooled-buffers.ipynb"] = 44.3,
        ["04a-floor-and-peers.ipynb"] = 55.1,
        ["05-request-bodies.ipynb"] = 48.3,
        ["06-http2.ipynb"] = 22.4,
        ["07-under-load.ipynb"] = 121.3,
        ["08-the-journey.ipynb"] = 65.8,
        ["09-your-service.ipynb"] = 62.7,
    };

    /// <summary>What a notebook without a measured time weighs in the deal: about the series' average.</summary>
    private const double UnlistedSeconds = 55;

    /// <summary>
    /// The notebooks of the <paramref name="shard"/>th shard: the longest first, each to the shard with the least time so
    /// far, so each shard's notebooks add up to about the same time. They still do not end together: the first notebook
    /// of each shard also waits for the builds, and chapter 02 for fetching .NET 8 and 9.
    /// </summary>
    public static TheoryData<string> Shard(int shard)
    {
        var totals = new double[Shards];
        var data = new TheoryData<string>();
        foreach (string notebook in Series().OrderByDescending(Weight).ThenBy(n => n, StringComparer.Ordinal))
        {
            int lightest = Array.IndexOf(totals, totals.Min());
            totals[lightest] += Weight(notebook);
            if (lightest == shard)
            {
                data.Add(notebook);
            }
        }

        return data;
    }

    private static double Weight(string notebook) => MeasuredSeconds.GetValueOrDefault(notebook, UnlistedSeconds);

    protected async Task RunsHeadlesslyWithReportsAndAChart(string notebook)
    {
        string outDir = Path.Combine(Path.GetTempPath(), "pooledhttp-tests", Guid.NewGuid().ToString("N"));
        (int exit, string stdout, string stderr) = await RunnerProcess.RunAsync(Path.Combine(Root, "notebooks", notebook), "--quick", "--out", outDir);
        output.WriteLine(stdout);
        Assert.True(exit == 0, $"runner exit {exit}: {stderr}\n{stdout}");

        string name = Path.GetFileNameWithoutExtension(notebook);
        var executed = (JsonObject)JsonNode.Parse(File.ReadAllText(Path.Combine(outDir, "notebooks", name + ".ipynb")))!;
        var cells = ((JsonArray)executed["cells"]!).OfType<JsonObject>().Where(c => (string?)c["cell_type"] == "code").ToList();
        Assert.All(cells, cell => Assert.NotNull(cell["execution_count"]?.GetValue<int>()));
        var outputs = cells.SelectMany(c => ((JsonArray)c["outputs"]!).OfType<JsonObject>()).ToList();
        Assert.DoesNotContain(outputs, o => (string?)o["output_type"] == "error");

        // No compiler diagnostic under any cell: the runner hosts the kernel, so a warning here (CS1701, CS8632, ...)
        // is the warning a learner sees under that cell in Jupyter or VS Code.
        string[] diagnostics = [.. outputs
            .Where(o => (string?)o["name"] == "stderr")
            .Select(o => (string?)o["text"] ?? string.Empty)
            .SelectMany(text => text.Split('\n'))
            .Where(line => System.Text.RegularExpressions.Regex.IsMatch(line, @"\b(warning|error) CS\d{4}"))];
        Assert.True(diagnostics.Length == 0, "compiler diagnostics under the cells:\n" + string.Join("\n", diagnostics));
        Assert.Contains(outputs, o => o["data"]?["text/html"]?.ToJsonString().Contains("Plotly.newPlot(", StringComparison.Ordinal) == true);
        await NbformatValidator.AssertValidAsync(Path.Combine(outDir, "notebooks", name + ".ipynb"));

        // Each benchmark cell kept one live progress line, updated in place to its final state.
        string[] progress = outputs.Select(o => (string?)o["data"]?["text/plain"]).OfType<string>().Where(t => t.StartsWith("Measuring ", StringComparison.Ordinal)).ToArray();
        Assert.NotEmpty(progress);
        Assert.All(progress, line => Assert.Matches(@"done: (\d+) of \1 case\(s\) reported · \d+:\d\d elapsed$", line));

        // Every chart was also saved as a standalone page with plotly.js inside: nothing to fetch.
        string[] charts = Directory.GetFiles(Path.Combine(outDir, "charts"), "*.html");
        Assert.NotEmpty(charts);
        Assert.All(charts, chart =>
        {
            string html = File.ReadAllText(chart);
            Assert.Contains("plotly.js (basic - minified) v", html, StringComparison.Ordinal);
            Assert.DoesNotMatch(@"<script[^>]*\ssrc=", html); // no script loaded from anywhere
            Assert.DoesNotContain("<link", html, StringComparison.Ordinal);
        });

        // The run's one-page report: the chapter's heading, its tables and charts, plotly.js once, nothing fetched.
        // One chapter's run has a report of its own, so it never replaces the series' report.html.
        Assert.False(File.Exists(Path.Combine(outDir, "report.html")));
        string report = File.ReadAllText(Path.Combine(outDir, $"report-{name.Split('-')[0]}.html"));
        Assert.Contains($"<section id=\"{name}\">", report, StringComparison.Ordinal);
        Assert.Contains("<table>", report, StringComparison.Ordinal);
        Assert.Contains("Plotly.newPlot(", report, StringComparison.Ordinal);
        Assert.Single(System.Text.RegularExpressions.Regex.Matches(report, "plotly.js \\(basic - minified\\) v"));
        Assert.DoesNotMatch(@"<script[^>]*\ssrc=", report);
        Assert.Contains($"{Environment.ProcessorCount} cores", report, StringComparison.Ordinal);
        Assert.Contains("Runtimes measured: .NET ", report, StringComparison.Ordinal);
        Assert.Contains($"report-{name.Split('-')[0]}.html", stdout, StringComparison.Ordinal);

        // The results CSV parses and holds one row per measured strategy (and size and runtime).
        IReadOnlyList<MeasuredRow> rows = ResultsCsv.Read(Path.Combine(outDir, "results", name + ".csv"));
        Assert.NotEmpty(rows);
        Assert.Equal(rows.Count, rows.Select(r => (r.Benchmark, r.Strategy, r.PayloadBytes, r.Variant, r.Runtime)).Distinct().Count());
        Assert.All(rows, r =>
        {
            Assert.Equal(name, r.Notebook);
            Assert.Equal("quick", r.Profile);
            Assert.True(r.AllocatedBytes >= 0);
            Assert.True(r.MeanNs > 0);
        });

        // A chapter's exercise, untouched, is the learner's to do: reported as such, and the notebook still passes.
        if (File.ReadAllText(Path.Combine(Root, "notebooks", notebook)).Contains("Your turn", StringComparison.Ordinal))
        {
            Assert.Matches(@"Exercises:\s+E0\d  exercise not done yet: exercises/E0\d_\w+\.cs", stdout);
            Assert.Contains("0 of 1 exercise(s) done.", stdout, StringComparison.Ordinal);
        }

        // Renting and returning can allocate nothing at all, but a run where nothing allocated is a diagnoser that saw nothing.
        Assert.Contains(rows, r => r.AllocatedBytes > 0);
        foreach (MeasuredRow row in rows)
        {
            Assert.Contains(row.Strategy, stdout, StringComparison.Ordinal); // the closing table lists it
        }
    }
}

public sealed class NotebookRunFirstShard(ITestOutputHelper output) : NotebookRun(output)
{
    [Theory]
    [MemberData(nameof(Shard), 0, MemberType = typeof(NotebookRun))]
    public Task Notebook_runs_headlessly_with_reports_and_a_chart(string notebook) => RunsHeadlesslyWithReportsAndAChart(notebook);
}

public sealed class NotebookRunSecondShard(ITestOutputHelper output) : NotebookRun(output)
{
    [Theory]
    [MemberData(nameof(Shard), 1, MemberType = typeof(NotebookRun))]
    public Task Notebook_runs_headlessly_with_reports_and_a_chart(string notebook) => RunsHeadlesslyWithReportsAndAChart(notebook);
}

public sealed class NotebookRunThirdShard(ITestOutputHelper output) : NotebookRun(output)
{
    [Theory]
    [MemberData(nameof(Shard), 2, MemberType = typeof(NotebookRun))]
    public Task Notebook_runs_headlessly_with_reports_and_a_chart(string notebook) => RunsHeadlesslyWithReportsAndAChart(notebook);
}
