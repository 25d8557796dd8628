using System.Diagnostics;
using System.Text.Json.Nodes;
using PooledHttp.Publishing;
using PooledHttp.Workshop.Building;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;
using Xunit.Abstractions;

namespace PooledHttp.Tests.Notebooks;

/// <summary>
/// The chapters as .NET file-based apps (<c>notebooks/apps</c>, written by <see cref="ChapterApps"/>): each is the one
/// its notebook gives today, each builds, and chapter 00's app measures what the runner measures for that chapter.
/// </summary>
public sealed class ChapterAppTests(ITestOutputHelper output)
{
    private static readonly string Root = Repository.RepositoryTests.FindRoot();

    [Fact]
    public void Every_app_is_the_one_its_notebook_gives()
    {
        IReadOnlyList<string> notebooks = ChapterApps.Notebooks(Root);
        Assert.NotEmpty(notebooks);
        var stale = new List<string>();
        foreach (string notebook in notebooks)
        {
            string app = ChapterApps.AppPath(Root, notebook);
            if (!File.Exists(app) || File.ReadAllText(app).ReplaceLineEndings("\n") != ChapterApps.Generate(notebook))
            {
                stale.Add(Path.GetRelativePath(Root, app));
            }
        }

        // An app nobody generates any more (its notebook renamed or gone) is stale too.
        stale.AddRange(Directory.EnumerateFiles(Path.Combine(Root, ChapterApps.Folder), "*.cs")
            .Where(app => !notebooks.Any(n => ChapterApps.AppPath(Root, n) == app))
            .Select(app => Path.GetRelativePath(Root, app) + " (no notebook)"));
        Assert.True(stale.Count == 0, $"Out of date with their notebooks: {string.Join(", ", stale)}. Run `{ChapterApps.Command}` and commit what it writes.");
    }

    [Theory]
    [InlineData("#!time\nConsole.WriteLine(1);", "#!time")]
    [InlineData("#r \"nuget: Humanizer, 2.14.1\"", "#r")]
    [InlineData("public static int Shared = 1;", "public static")]
    [InlineData("int Cell = 1;", "'Cell'")]
    public void The_generator_names_the_cell_it_cannot_translate(string cell, string named)
    {
        string notebook = ScratchNotebook("#load \"workshop.csx\"", "#load \"kit.csx\"\nusing System.IO;", cell);
        InvalidDataException refused = Assert.Throws<InvalidDataException>(() => ChapterApps.Generate(notebook));
        Assert.Contains("cell 4", refused.Message, StringComparison.Ordinal);
        Assert.Contains(named, refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Cells_that_declare_the_same_name_get_a_scope_each_or_a_clear_refusal()
    {
        // The first cell's `size` is not used later, so that cell can be a block of its own.
        string app = ChapterApps.Generate(ScratchNotebook("#load \"kit.csx\"", "int size = 1;\nConsole.WriteLine(size);", "foreach (int size in new[] { 2 })\n{\n    Console.WriteLine(size);\n}"));
        Assert.Contains("{ // a block of its own", app, StringComparison.Ordinal);
        Assert.Contains("    int size = 1;", app, StringComparison.Ordinal);

        // Here a later cell uses it: no block can hold it, and the message says what to rename.
        InvalidDataException refused = Assert.Throws<InvalidDataException>(() => ChapterApps.Generate(
            ScratchNotebook("#load \"kit.csx\"", "int size = 1;", "int size = 2;", "Console.WriteLine(size);")));
        Assert.Contains("'size'", refused.Message, StringComparison.Ordinal);
        Assert.Contains("Rename", refused.Message, StringComparison.Ordinal);
    }

    /// <summary>
    /// <c>dotnet build</c> of every app, one after another, under the workshop's build lock (they build the kit's
    /// projects in their own folders, as BenchmarkDotNet's builds do).
    /// </summary>
    [Fact]
    public async Task Every_app_builds()
    {
        var failures = new List<string>();
        var clock = Stopwatch.StartNew();
        using (BuildLock.Take("the chapter apps (ChapterAppTests)", BuildLock.Timeout))
        {
            foreach (string notebook in ChapterApps.Notebooks(Root))
            {
                string app = ChapterApps.AppPath(Root, notebook);
                var one = Stopwatch.StartNew();
                ChildResult build = await ChildProcess.RunAsync("dotnet", ["build", app, "--nologo", "-v", "quiet"], TimeSpan.FromMinutes(10), workingDirectory: Root);
                output.WriteLine($"{Path.GetFileName(app)}: exit {build.ExitCode} in {one.Elapsed.TotalSeconds:0.0} s");
                if (build.ExitCode != 0)
                {
                    failures.Add($"{Path.GetFileName(app)} (exit {build.ExitCode}):\n{build.Output}\n{build.Error}");
                }
            }
        }

        output.WriteLine($"Every app built in {clock.Elapsed.TotalSeconds:0} s.");
        Assert.True(failures.Count == 0, string.Join("\n\n", failures));
    }

    /// <summary>
    /// Chapter 00 run by the runner and as an app, both on the quick profile, each into an output folder of its own: the
    /// same rows (strategy, size, runtime), allocations within run-to-run spread, the same console text cell by cell
    /// with the measured parts masked as <see cref="JupyterTests"/> masks them, a live progress line that reached its
    /// end, and no warning from BenchmarkDotNet that what it measured was built without optimizations.
    /// </summary>
    [Fact]
    public async Task Chapter_00_as_an_app_measures_what_the_runner_measures()
    {
        const string Chapter = "00-getting-started";
        string runnerOut = Scratch(), appOut = Scratch();
        (int exit, string stdout, string stderr) = await Support.RunnerProcess.RunAsync(Path.Combine(Root, "notebooks", Chapter + ".ipynb"), "--quick", "--out", runnerOut);
        Assert.True(exit == 0, $"runner exit {exit}: {stderr}\n{stdout}");

        // The app under a run context with an output folder of its own, as the runner gives its notebooks: its rows go
        // there, not into data/results.
        var clock = Stopwatch.StartNew();
        ChildResult app;
        using (BuildLock.Take("chapter 00's app (ChapterAppTests)", BuildLock.Timeout))
        {
            ChildResult build = await ChildProcess.RunAsync("dotnet", ["build", ChapterApps.AppPath(Root, Chapter), "--nologo", "-v", "quiet"], TimeSpan.FromMinutes(10), workingDirectory: Root);
            Assert.True(build.ExitCode == 0, build.Output + build.Error);
        }

        app = await ChildProcess.RunAsync("dotnet", ["run", "--no-build", ChapterApps.AppPath(Root, Chapter), "--", "--quick"], TimeSpan.FromMinutes(10),
            new Dictionary<string, string> { [RunContext.Variable] = new RunContext { Output = appOut }.ToJson() }, workingDirectory: Root);
        output.WriteLine($"The app ran in {clock.Elapsed.TotalSeconds:0} s:\n{app.Output}\n{app.Error}");
        Assert.True(app.ExitCode == 0, $"app exit {app.ExitCode}: {app.Error}\n{app.Output}");
        Assert.DoesNotContain("non-optimized", app.Output + app.Error, StringComparison.OrdinalIgnoreCase);
        Assert.Contains(app.Output.Split('\n'), line => line.StartsWith("Measuring ", StringComparison.Ordinal) && line.Contains("done: 2 of 2 case(s) reported", StringComparison.Ordinal));

        IReadOnlyList<MeasuredRow> byRunner = ResultsCsv.Read(Path.Combine(runnerOut, "results", Chapter + ".csv"));
        IReadOnlyList<MeasuredRow> byApp = ResultsCsv.Read(Path.Combine(appOut, "results", Chapter + ".csv"));
        Assert.Equal(byRunner.Select(Key), byApp.Select(Key));
        foreach ((MeasuredRow runner, MeasuredRow mine) in byRunner.Zip(byApp))
        {
            // BenchmarkDotNet counts allocations exactly; what moves between runs is the odd buffer a connection or the
            // pool grows: well within a tenth, or a kibibyte for the smallest rows.
            long spread = Math.Max(1024, runner.AllocatedBytes / 10);
            Assert.True(Math.Abs(runner.AllocatedBytes - mine.AllocatedBytes) <= spread, $"{Key(runner)}: the runner measured {runner.AllocatedBytes:N0} B, the app {mine.AllocatedBytes:N0} B");
            Assert.Equal("quick", mine.Profile);
        }

        // The runner's console text of each code cell, masked, appears in the app's under the same cell, in order.
        var notebook = (JsonObject)JsonNode.Parse(await File.ReadAllTextAsync(Path.Combine(runnerOut, "notebooks", Chapter + ".ipynb")))!;
        Dictionary<int, List<string>> appCells = ByCell(app.Output, Chapter);
        var differences = new List<string>();
        JsonArray cells = (JsonArray)notebook["cells"]!;
        for (int i = 0; i < cells.Count; i++)
        {
            var cell = (JsonObject)cells[i]!;
            string source = Text(cell["source"]);
            if ((string?)cell["cell_type"] != "code" || source.Contains("#load", StringComparison.Ordinal))
            {
                continue; // the setup cells are the app's #:project line
            }

            List<string> expected = [.. ((JsonArray?)cell["outputs"] ?? []).OfType<JsonObject>()
                .Where(o => (string?)o["output_type"] == "stream" && (string?)o["name"] == "stdout")
                .SelectMany(o => Text(o["text"]).Split('\n'))
                .Select(JupyterTests.Masked).Where(l => l.Length > 0)];
            List<string> seen = appCells.GetValueOrDefault(i + 1, []);
            int at = 0;
            foreach (string line in expected)
            {
                int found = seen.IndexOf(line, at);
                if (found < 0)
                {
                    differences.Add($"cell {i + 1}: the runner printed \"{line}\", the app did not (after its line {at})");
                    break;
                }

                at = found + 1;
            }
        }

        Assert.True(differences.Count == 0, string.Join("\n", differences));
    }

    private static string Key(MeasuredRow row) => $"{row.Strategy} {row.PayloadBytes} {row.Variant} {row.Runtime}";

    /// <summary>The app's stdout, masked, by the cell it came from (its <c>Cell(n)</c> line).</summary>
    private static Dictionary<int, List<string>> ByCell(string stdout, string chapter)
    {
        var cells = new Dictionary<int, List<string>>();
        List<string>? current = null;
        string marker = $"-- {chapter} cell ";
        foreach (string line in stdout.ReplaceLineEndings("\n").Split('\n'))
        {
            if (line.StartsWith(marker, StringComparison.Ordinal))
            {
                cells[int.Parse(line[marker.Length..], System.Globalization.CultureInfo.InvariantCulture)] = current = [];
            }
            else if (current is not null && JupyterTests.Masked(line) is { Length: > 0 } masked)
            {
                current.Add(masked);
            }
        }

        return cells;
    }

    private static string Text(JsonNode? node) => node switch
    {
        JsonArray lines => string.Concat(lines.Select(l => (string?)l)),
        JsonValue value => (string?)value ?? string.Empty,
        _ => string.Empty,
    };

    private static string Scratch() => Path.Combine(Path.GetTempPath(), "pooledhttp-tests", Guid.NewGuid().ToString("N"));

    /// <summary>A notebook of the given code cells, after a markdown cell (so the first code cell is cell 2), in a folder of its own.</summary>
    private static string ScratchNotebook(params string[] code)
    {
        string folder = Scratch();
        Directory.CreateDirectory(folder);
        var cells = new JsonArray(new JsonObject { ["cell_type"] = "markdown", ["metadata"] = new JsonObject(), ["source"] = "# scratch" });
        foreach (string source in code)
        {
            cells.Add(new JsonObject { ["cell_type"] = "code", ["metadata"] = new JsonObject(), ["source"] = source, ["outputs"] = new JsonArray(), ["execution_count"] = null });
        }

        string path = Path.Combine(folder, "99-scratch.ipynb");
        File.WriteAllText(path, new JsonObject { ["cells"] = cells, ["metadata"] = new JsonObject(), ["nbformat"] = 4, ["nbformat_minor"] = 5 }.ToJsonString());
        return path;
    }
}
