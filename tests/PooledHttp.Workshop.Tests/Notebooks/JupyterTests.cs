using System.Diagnostics;
using System.Net;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using PooledHttp.Tests.Support;
using Xunit.Abstractions;

namespace PooledHttp.Tests.Notebooks;

/// <summary>
/// Chapter 00 in the real notebook host: Jupyter's <c>nbconvert</c> executes it through the .NET Interactive kernel
/// (the <c>.net-csharp</c> kernel, the tool at the repository's pin), on the quick profile, once per test run
/// (<see cref="JupyterChapter00"/>). Its outputs hold no error and no warning CS1701, and they have the shape of the
/// headless runner's outputs for the same chapter. Outside CI the tests are skipped when Jupyter, the kernel or its
/// tool is missing, saying what to install (<see cref="JupyterFactAttribute"/>); <c>.ci/run</c> installs them.
/// </summary>
public sealed partial class JupyterTests(JupyterChapter00 jupyter, ITestOutputHelper output) : IClassFixture<JupyterChapter00>
{
    private static readonly string Root = Repository.RepositoryTests.FindRoot();

    [JupyterFact]
    public async Task Chapter_00_runs_in_jupyter_with_no_error_and_no_warning_CS1701()
    {
        JupyterExecution run = await jupyter.ExecutedAsync();
        output.WriteLine($"nbconvert ran chapter 00 in {run.Took.TotalSeconds:0} s ({run.Attempts} attempt(s)), kernel tool from {run.ToolFolder}.");

        List<JsonObject> cells = CodeCells(run.Notebook);
        Assert.NotEmpty(cells);
        var problems = new List<string>();
        for (int i = 0; i < cells.Count; i++)
        {
            if (cells[i]["execution_count"] is null)
            {
                problems.Add($"cell {i + 1}: not executed");
            }

            foreach (JsonObject o in Outputs(cells[i]))
            {
                string type = (string)o["output_type"]!;
                if (type == "error")
                {
                    problems.Add($"cell {i + 1}: error output {o["ename"]}: {FirstLine((string?)o["evalue"])}");
                }
                else if (type == "stream" && (string?)o["name"] == "stderr" && StreamText(o).Contains("error", StringComparison.OrdinalIgnoreCase))
                {
                    problems.Add($"cell {i + 1}: stderr says error: {StreamText(o).Trim()}");
                }

                if (o.ToJsonString().Contains("CS1701", StringComparison.Ordinal))
                {
                    // notebooks/kit.csx and PooledHttp.Workshop.Exercising.csproj say where it came from and why it is gone.
                    problems.Add($"cell {i + 1}: warning CS1701 in a {type} output: {FirstLine(type == "stream" ? StreamText(o).Trim() : o.ToJsonString())}");
                }
            }
        }

        Assert.True(problems.Count == 0, $"chapter 00 in Jupyter ({run.OutputPath}):\n" + string.Join("\n", problems));
    }

    [JupyterFact]
    public async Task Chapter_00_in_jupyter_has_the_outputs_the_headless_runner_gives_it()
    {
        JupyterExecution run = await jupyter.ExecutedAsync();
        string outDir = Path.Combine(Path.GetTempPath(), "pooledhttp-tests", Guid.NewGuid().ToString("N"));
        var runnerTime = Stopwatch.StartNew();
        (int exit, string stdout, string stderr) = await RunnerProcess.RunAsync(Path.Combine(Root, "notebooks", JupyterChapter00.Notebook), "--quick", "--out", outDir);
        output.WriteLine($"The runner ran chapter 00 in {runnerTime.Elapsed.TotalSeconds:0} s.");
        Assert.True(exit == 0, $"runner exit {exit}: {stderr}\n{stdout}");
        var runner = (JsonObject)JsonNode.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "notebooks", JupyterChapter00.Notebook)))!;

        List<JsonObject> inJupyter = CodeCells(run.Notebook), inRunner = CodeCells(runner);
        Assert.Equal(inJupyter.Count, inRunner.Count);
        var differences = new List<string>();
        for (int i = 0; i < inJupyter.Count; i++)
        {
            // The first cell's text says whether the helpers were built or found up to date, which depends on which host
            // ran first; its outputs' kinds are still compared.
            bool text = i > 0;
            string[] jupyterOutputs = Seen(inJupyter[i], text), runnerOutputs = Seen(inRunner[i], text);
            output.WriteLine($"cell {i + 1}:\n  Jupyter    {string.Join("\n             ", jupyterOutputs)}\n  the runner {string.Join("\n             ", runnerOutputs)}");
            if (!jupyterOutputs.SequenceEqual(runnerOutputs))
            {
                differences.Add($"cell {i + 1}: Jupyter shows [{string.Join(" | ", jupyterOutputs)}], the runner [{string.Join(" | ", runnerOutputs)}]");
            }

            // A live progress line: one output, updated in place to its final state, on the quick profile, in both hosts.
            foreach ((string host, JsonObject cell) in new[] { ("Jupyter", inJupyter[i]), ("the runner", inRunner[i]) })
            {
                foreach (string line in PlainTexts(cell).Where(t => t.StartsWith("Measuring ", StringComparison.Ordinal)))
                {
                    if (!ProgressDone().IsMatch(line) || !line.Contains("quick profile", StringComparison.Ordinal))
                    {
                        differences.Add($"cell {i + 1}: {host}'s progress line did not reach its final state on the quick profile: {line}");
                    }
                }
            }
        }

        Assert.True(differences.Count == 0, "chapter 00, Jupyter against the headless runner:\n" + string.Join("\n", differences));
    }

    /// <summary>
    /// What a learner sees of a cell, output by output, in order: each output's type, with its MIME types or its
    /// stream's name, and, with <paramref name="text"/>, what it says with the measured parts masked (numbers, their
    /// units, ids): the stream's text and a display's plain text; of HTML, the table headers and the first column of
    /// every table row, and a chart's title. Consecutive outputs of one stream count as one (nbconvert's
    /// coalesce_streams joins them), and a stderr output of compiler warnings counts by its warning codes. Left out: the
    /// kernel's own script that Jupyter's first cell shows (<see cref="IsKernelBootstrap"/>), which no cell asked for.
    /// </summary>
    private static string[] Seen(JsonObject cell, bool text)
    {
        var seen = new List<string>();
        string? streamName = null;
        var stream = new System.Text.StringBuilder();
        void EndStream()
        {
            if (streamName is not null)
            {
                string said = streamName == "stderr" && OnlyWarnings(stream.ToString())
                    ? "warnings " + string.Join(",", WarningCode().Matches(stream.ToString()).Select(m => m.Value).Distinct().Order(StringComparer.Ordinal))
                    : text ? Masked(stream.ToString()) : string.Empty;
                seen.Add($"stream {streamName}: {said}");
                streamName = null;
                stream.Clear();
            }
        }

        foreach (JsonObject o in Outputs(cell))
        {
            if (IsKernelBootstrap(o))
            {
                continue;
            }

            string type = (string)o["output_type"]!;
            if (type == "stream")
            {
                string name = (string?)o["name"] ?? string.Empty;
                if (streamName != name)
                {
                    EndStream();
                    streamName = name;
                }

                stream.Append(StreamText(o));
                continue;
            }

            EndStream();
            string mimes = string.Join("+", (o["data"] as JsonObject ?? []).Select(p => p.Key).Order(StringComparer.Ordinal));
            string said = !text ? string.Empty
                : Text(o["data"]?["text/plain"]) is { } plain ? Masked(plain)
                : Text(o["data"]?["text/html"]) is { } html ? HtmlSays(html)
                : type == "error" ? Masked(FirstLine((string?)o["evalue"]))
                : string.Empty;
            seen.Add($"{type} {mimes}: {said}");
        }

        EndStream();
        return [.. seen];
    }

    /// <summary>Of an HTML output: its tables' headers and first column, and a chart's title, masked.</summary>
    private static string HtmlSays(string html)
    {
        IEnumerable<string> headers = HeaderCell().Matches(html).Select(m => CellText(m.Groups["text"].Value));
        IEnumerable<string> firstColumn = TableSection().Matches(html)
            .SelectMany(section => TableRow().Matches(section.Value))
            .Select(row => FirstCell().Match(row.Value))
            .Where(first => first.Success)
            .Select(first => CellText(first.Groups["text"].Value));
        string title = ChartTitle().Match(html) is { Success: true } m ? "chart: " + Regex.Unescape(m.Groups["text"].Value) : string.Empty;
        return Masked(string.Join("; ", headers.Concat(firstColumn).Append(title)));
    }

    private static string CellText(string html) => WebUtility.HtmlDecode(Tag().Replace(html, string.Empty)).Trim();

    /// <summary>Text with what a run decides masked: ids, then numbers with their units (the chapter app's test compares with it too).</summary>
    internal static string Masked(string text)
        => Number().Replace(Id().Replace(text.Replace("\r\n", "\n", StringComparison.Ordinal), "<id>"), "#").Trim();

    /// <summary>The script the .NET Interactive kernel shows once, in Jupyter's first cell, to find its HTTP API (<c>#!enable-http</c>).</summary>
    private static bool IsKernelBootstrap(JsonObject o)
        => Text(o["data"]?["text/html"])?.Contains("dotnet-interactive-this-cell", StringComparison.Ordinal) == true;

    private static bool OnlyWarnings(string text)
        => text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).All(line => Warning().IsMatch(line));

    private static IEnumerable<string> PlainTexts(JsonObject cell) => Outputs(cell).Select(o => Text(o["data"]?["text/plain"])).OfType<string>();

    private static List<JsonObject> CodeCells(JsonObject notebook)
        => [.. ((JsonArray)notebook["cells"]!).OfType<JsonObject>().Where(c => (string?)c["cell_type"] == "code")];

    private static IEnumerable<JsonObject> Outputs(JsonObject cell) => ((JsonArray?)cell["outputs"] ?? []).OfType<JsonObject>();

    private static string StreamText(JsonObject o) => Text(o["text"]) ?? string.Empty;

    /// <summary>nbformat's multiline string: one string, or a list of lines.</summary>
    private static string? Text(JsonNode? node) => node switch
    {
        JsonArray lines => string.Concat(lines.Select(l => (string?)l)),
        JsonValue value => (string?)value,
        _ => null,
    };

    private static string FirstLine(string? text) => (text ?? string.Empty).Split('\n')[0];

    [GeneratedRegex(@"<(thead|tbody)>.*?</\1>", RegexOptions.Singleline)]
    private static partial Regex TableSection();

    [GeneratedRegex(@"<tr>.*?</tr>", RegexOptions.Singleline)]
    private static partial Regex TableRow();

    [GeneratedRegex(@"<t[hd][^>]*>(?<text>.*?)</t[hd]>", RegexOptions.Singleline)]
    private static partial Regex FirstCell();

    [GeneratedRegex(@"<th[^>]*>(?<text>.*?)</th>", RegexOptions.Singleline)]
    private static partial Regex HeaderCell();

    [GeneratedRegex(@"""title"":\{""text"":""(?<text>(?:[^""\\]|\\.)*)""")]
    private static partial Regex ChartTitle();

    /// <summary>A number as the outputs print them (1,234.5, 0:05, 127.0.0.1:4321), with the unit after it, if any.</summary>
    [GeneratedRegex(@"\d[\d,.:]*(\s?(ns|us|µs|μs|ms|s|B|KiB|MiB|GiB|KB|MB|GB)\b)?")]
    private static partial Regex Number();

    /// <summary>GUIDs and long hexadecimal ids (a chart's div, a display's id).</summary>
    [GeneratedRegex(@"\b[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}\b")]
    private static partial Regex Id();

    [GeneratedRegex(@"CS\d{4}")]
    private static partial Regex WarningCode();

    [GeneratedRegex(@"<[^>]+>")]
    private static partial Regex Tag();

    [GeneratedRegex(@"(^|\): )warning CS\d{4}:")]
    private static partial Regex Warning();

    [GeneratedRegex(@"done: (\d+) of \1 case\(s\) reported")]
    private static partial Regex ProgressDone();
}

/// <summary>Chapter 00 as Jupyter executed it: the notebook nbconvert wrote, where, how long it took, and with which tool.</summary>
public sealed record JupyterExecution(JsonObject Notebook, string OutputPath, TimeSpan Took, int Attempts, string ToolFolder);

/// <summary>
/// Runs chapter 00 through Jupyter once for the test class, when a test first asks (a class whose tests are all
/// skipped runs nothing): <c>jupyter nbconvert --to notebook --execute</c> with the <c>.net-csharp</c> kernel, on the
/// quick profile, from the notebooks' folder (the chapter loads <c>workshop.csx</c> beside it), with the tool's
/// folder first on the PATH, so that the <c>dotnet interactive</c> Jupyter starts is the pinned tool.
/// </summary>
public sealed class JupyterChapter00
{
    /// <summary>The chapter.</summary>
    public const string Notebook = "00-getting-started.ipynb";

    /// <summary>
    /// A cell may run this long: the first cell builds the helpers (about half a minute alone, and it may wait up to
    /// ten minutes for another build's lock, notebooks/workshop.csx), the benchmark cell builds and measures.
    /// </summary>
    private const int CellTimeoutSeconds = 900;

    /// <summary>The whole run: longer than any one cell may take, so a hung cell is reported by nbconvert, naming it.</summary>
    private static readonly TimeSpan RunTimeout = TimeSpan.FromMinutes(30);

    /// <summary>How often a kernel that died starting is started again (see <see cref="DiedStarting"/>).</summary>
    private const int Attempts = 3;

    private readonly Lazy<Task<JupyterExecution>> _run = new(RunAsync);

    /// <summary>Chapter 00 executed by Jupyter; fails, saying what is missing, when Jupyter, the kernel or its tool is.</summary>
    public Task<JupyterExecution> ExecutedAsync() => _run.Value;

    private static async Task<JupyterExecution> RunAsync()
    {
        JupyterLookup lookup = JupyterKernel.Lookup;
        if (!lookup.Found)
        {
            // Only under CI does a test get here without them: .ci/run installs them, so this is a failure.
            throw new InvalidOperationException(lookup.CiFailure);
        }

        string root = Repository.RepositoryTests.FindRoot();
        string notebooks = Path.Combine(root, "notebooks");
        var took = Stopwatch.StartNew();
        for (int attempt = 1; ; attempt++)
        {
            string outDir = Path.Combine(Path.GetTempPath(), "pooledhttp-tests", Guid.NewGuid().ToString("N"));
            string jupyterPath = Path.Combine(outDir, "jupyter");
            JupyterKernel.WriteKernelSpec(jupyterPath, lookup.ToolFolder!);
            var environment = new Dictionary<string, string>(ToolEnvironment.WithoutRunContext)
            {
                // Jupyter looks here first for the kernel: ours, whatever the user registered.
                ["JUPYTER_PATH"] = jupyterPath,
                ["PATH"] = JupyterKernel.PathFor(lookup.ToolFolder!),
                // The run's files (results, charts, summary) go to the scratch folder, not to the learner's data/results,
                // as the runner's do; the outputs in the notebook are the same either way (PlotlyHtml, RunSummary).
                ["POOLEDHTTP_RUN"] = $$"""{"output":{{System.Text.Json.JsonSerializer.Serialize(outDir)}},"profile":"quick"}""",
                ["POOLEDHTTP_PROFILE"] = "quick",
                ["DOTNET_INTERACTIVE_CLI_TELEMETRY_OPTOUT"] = "1",
                ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1",
            };
            string[] arguments =
            [
                "nbconvert", "--to", "notebook", "--execute", $"--ExecutePreprocessor.kernel_name={JupyterKernel.KernelName}",
                $"--ExecutePreprocessor.timeout={CellTimeoutSeconds}", "--ExecutePreprocessor.startup_timeout=180",
                // Outputs that arrive after a cell's reply are waited for, and a wait that runs out fails the run instead of
                // dropping them (nbclient's default: a logged warning).
                "--ExecutePreprocessor.iopub_timeout=30", "--ExecutePreprocessor.raise_on_iopub_timeout=True",
                // An error output does not stop the run: the test lists every one.
                "--allow-errors", "--output-dir", outDir, Path.Combine(notebooks, Notebook),
            ];
            (int exit, string stdout, string stderr) = await ChildProcess.RunAsync("jupyter", arguments, RunTimeout, environment, workingDirectory: notebooks);
            string written = Path.Combine(outDir, Notebook);
            if (exit == 0 && File.Exists(written))
            {
                var notebook = (JsonObject)JsonNode.Parse(await File.ReadAllTextAsync(written))!;
                TryDelete(outDir); // passed: the notebook is in memory; a failure keeps its folder, named in the message
                return new JupyterExecution(notebook, written, took.Elapsed, attempt, lookup.ToolFolder!);
            }

            if (attempt < Attempts && DiedStarting(stderr))
            {
                continue;
            }

            throw new InvalidOperationException($"jupyter nbconvert did not execute {Notebook} (exit {exit}, attempt {attempt}, files in {outDir}):\n{stderr}\n{stdout}");
        }
    }

    /// <summary>Removes a scratch folder; one that is still in use stays for the system's temp cleaning.</summary>
    internal static void TryDelete(string folder)
    {
        try
        {
            Directory.Delete(folder, recursive: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }
    }

    /// <summary>
    /// The kernel died before it ran a cell. Its kernelspec gives it a port range of its own, so the race with another
    /// .NET kernel for an HTTP port (the tool picks a free port and binds it a moment later) is unlikely, not
    /// impossible; a kernel that died starting is started again, up to <see cref="Attempts"/> times.
    /// </summary>
    private static bool DiedStarting(string stderr) => stderr.Contains("Kernel died", StringComparison.Ordinal);
}
