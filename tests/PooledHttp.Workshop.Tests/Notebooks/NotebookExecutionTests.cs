using System.Text.Json.Nodes;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Tests.Repository;
using PooledHttp.Tests.Support;
using Xunit.Abstractions;

namespace PooledHttp.Tests.Notebooks;

/// <summary>Every notebook of the series runs headlessly with the quick profile, and the runner reports failures.</summary>
[Collection(SerialTests.Name)]
public class NotebookExecutionTests(ITestOutputHelper output)
{
    private static readonly string Root = RepositoryTests.FindRoot();

    public static TheoryData<string> SeriesNotebooks()
    {
        var data = new TheoryData<string>();
        foreach (string path in Directory.EnumerateFiles(Path.Combine(Root, "notebooks"), "*.ipynb").Order(StringComparer.Ordinal))
        {
            data.Add(Path.GetFileName(path));
        }

        return data;
    }

    [Fact]
    public void The_series_has_notebooks()
    {
        Assert.NotEmpty(SeriesNotebooks());
    }

    [Theory]
    [MemberData(nameof(SeriesNotebooks))]
    public async Task Notebook_runs_headlessly_with_reports_and_a_chart(string notebook)
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
        string report = File.ReadAllText(Path.Combine(outDir, "report.html"));
        Assert.Contains($"<section id=\"{name}\">", report, StringComparison.Ordinal);
        Assert.Contains("<table>", report, StringComparison.Ordinal);
        Assert.Contains("Plotly.newPlot(", report, StringComparison.Ordinal);
        Assert.Single(System.Text.RegularExpressions.Regex.Matches(report, "plotly.js \\(basic - minified\\) v"));
        Assert.DoesNotMatch(@"<script[^>]*\ssrc=", report);
        Assert.Contains($"{Environment.ProcessorCount} cores", report, StringComparison.Ordinal);
        Assert.Contains("Runtimes measured: .NET ", report, StringComparison.Ordinal);
        Assert.Contains("report.html", stdout, StringComparison.Ordinal);

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

    [Fact]
    public void Every_notebook_sets_up_in_two_short_cells_that_work_in_the_kernel_and_the_runner()
    {
        foreach (string path in Directory.EnumerateFiles(Path.Combine(Root, "notebooks"), "*.ipynb"))
        {
            var notebook = (JsonObject)JsonNode.Parse(File.ReadAllText(path))!;
            string[] code = ((JsonArray)notebook["cells"]!).OfType<JsonObject>().Where(c => (string?)c["cell_type"] == "code")
                .Select(c => string.Concat(((JsonArray)c["source"]!).Select(l => (string?)l))).ToArray();
            string name = Path.GetFileName(path);

            // 1: the build, from a script the kernel can #load. 2: the kit's one setup file (its #r lines, plotly.js and
            // the chart formatter), then only the chapter's own `using` lines, which a loaded file cannot give it.
            Assert.True(code[0].Split('\n').Last().Trim() == "#load \"workshop.csx\"", $"{name}: the first code cell is not the #load of workshop.csx");
            Assert.True(code[0].Split('\n').Length <= 3, $"{name}: the first setup cell is more than a #load");
            string[] setup = code[1].Split('\n');
            Assert.True(setup[0] == "#load \"kit.csx\"", $"{name}: the second code cell does not start with #load \"kit.csx\"");
            Assert.All(setup.Skip(1), line => Assert.True(line.StartsWith("using ", StringComparison.Ordinal), $"{name}: the second setup cell has '{line}', not only using lines"));
            Assert.All(code.Skip(2), cell => Assert.DoesNotContain("#r ", cell, StringComparison.Ordinal));
        }

        Assert.True(File.Exists(Path.Combine(Root, "notebooks", "workshop.csx")));
        Assert.True(File.Exists(Path.Combine(Root, "notebooks", "kit.csx")));
    }

    [Fact]
    public async Task Runner_fails_on_a_broken_notebook_and_names_the_cell()
    {
        string outDir = Path.Combine(Path.GetTempPath(), "pooledhttp-tests", Guid.NewGuid().ToString("N"));
        string broken = Path.Combine(Root, "tests", "PooledHttp.Workshop.Tests", "Notebooks", "broken.ipynb");
        (int exit, string stdout, string stderr) = await RunnerProcess.RunAsync(broken, "--out", outDir);
        Assert.NotEqual(0, exit);
        Assert.Contains("broken, cell 3", stderr, StringComparison.Ordinal);
        Assert.Matches(@"FAILED\s+[\d.]+ s\s+broken: cell 3", stdout);
        Assert.Contains("broken on purpose", stderr, StringComparison.Ordinal);
        Assert.DoesNotContain("never reached", stdout, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Runner_help_explains_itself_and_unknown_options_fail()
    {
        (int exit, string stdout, _) = await RunnerProcess.RunAsync("--help");
        Assert.Equal(0, exit);
        Assert.Contains("--quick", stdout, StringComparison.Ordinal);
        Assert.Contains("--out", stdout, StringComparison.Ordinal);
        (int bad, _, string error) = await RunnerProcess.RunAsync("--no-such-option");
        Assert.Equal(2, bad);
        Assert.Contains("--no-such-option", error, StringComparison.Ordinal);
    }

    [Fact]
    public void Notebooks_are_committed_without_outputs_and_with_the_dotnet_kernel()
    {
        foreach (string path in Directory.EnumerateFiles(Path.Combine(Root, "notebooks"), "*.ipynb"))
        {
            var notebook = (JsonObject)JsonNode.Parse(File.ReadAllText(path))!;
            Assert.Equal(".net-csharp", (string?)notebook["metadata"]?["kernelspec"]?["name"]);
            Assert.Equal("csharp", (string?)notebook["metadata"]?["polyglot_notebook"]?["kernelInfo"]?["defaultKernelName"]);
            Assert.All(((JsonArray)notebook["cells"]!).OfType<JsonObject>().Where(c => (string?)c["cell_type"] == "code"),
                cell => Assert.Empty((JsonArray)cell["outputs"]!));
        }
    }

    [Fact]
    public void Each_notebook_says_what_you_will_learn_and_links_to_the_next_one_that_exists()
    {
        string folder = Path.Combine(Root, "notebooks");
        string[] series = Directory.EnumerateFiles(folder, "*.ipynb").Select(Path.GetFileName).Order(StringComparer.Ordinal).ToArray()!;
        for (int i = 0; i < series.Length; i++)
        {
            var notebook = (JsonObject)JsonNode.Parse(File.ReadAllText(Path.Combine(folder, series[i])))!;
            string[] markdown = ((JsonArray)notebook["cells"]!).OfType<JsonObject>().Where(c => (string?)c["cell_type"] == "markdown")
                .Select(c => string.Concat(((JsonArray)c["source"]!).Select(l => (string?)l))).ToArray();
            Assert.Contains("What you will learn", markdown[0], StringComparison.Ordinal);

            // The last cell links onwards: to the next notebook of the series, or back to the first from the last.
            string expected = i + 1 < series.Length ? series[i + 1] : series[0];
            System.Text.RegularExpressions.Match link = System.Text.RegularExpressions.Regex.Match(markdown[^1], @"\]\(([^)]+\.ipynb)\)");
            Assert.True(link.Success, $"{series[i]}: the last cell links to no notebook");
            Assert.Equal(expected, link.Groups[1].Value);
        }
    }

    [Fact]
    public void Every_glossary_term_is_linked_from_a_chapter_and_every_glossary_link_has_its_term()
    {
        // GitHub's anchors for "## Pool bucket" and "## Content-Length": lower case, spaces to hyphens.
        string glossary = File.ReadAllText(Path.Combine(Root, "docs", "glossary.md"));
        string[] anchors = glossary.Split('\n').Where(l => l.StartsWith("## ", StringComparison.Ordinal))
            .Select(l => l[3..].Trim().ToLowerInvariant().Replace(' ', '-')).ToArray();
        Assert.Contains("pool-bucket", anchors);

        var linked = new HashSet<string>();
        foreach (string path in Directory.EnumerateFiles(Path.Combine(Root, "notebooks"), "*.ipynb"))
        {
            foreach (System.Text.RegularExpressions.Match link in System.Text.RegularExpressions.Regex.Matches(File.ReadAllText(path), @"\]\(\.\./docs/glossary\.md#([a-z0-9-]+)\)"))
            {
                string anchor = link.Groups[1].Value;
                Assert.True(anchors.Contains(anchor), $"{Path.GetFileName(path)} links to #{anchor}, which docs/glossary.md does not define");
                linked.Add(anchor);
            }
        }

        Assert.Empty(anchors.Except(linked));
    }
}
