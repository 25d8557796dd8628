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
                    // notebooks/kit.csx and PooledHttp.Workshop.csproj say where it came from and why it is gone.
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
            string[] jupyterShape = Shape(inJupyter[i]), runnerShape = Shape(inRunner[i]);
            output.WriteLine($"cell {i + 1}: Jupyter [{string.Join(", ", jupyterShape)}], runner [{string.Join(", ", runnerShape)}]");
            if (!jupyterShape.SequenceEqual(runnerShape))
            {
                differences.Add($"cell {i + 1}: Jupyter gives [{string.Join(", ", jupyterShape)}], the runner [{string.Join(", ", runnerShape)}]");
            }

            string[] jupyterRows = TableRows(inJupyter[i]), runnerRows = TableRows(inRunner[i]);
            if (jupyterRows.Length + runnerRows.Length > 0)
            {
                output.WriteLine($"cell {i + 1}: table rows in Jupyter [{string.Join("; ", jupyterRows)}], in the runner [{string.Join("; ", runnerRows)}]");
            }

            if (!jupyterRows.SequenceEqual(runnerRows))
            {
                differences.Add($"cell {i + 1}: Jupyter's table rows [{string.Join("; ", jupyterRows)}], the runner's [{string.Join("; ", runnerRows)}]");
            }

            // A live progress line: one output, updated in place to its final state, in both hosts.
            foreach ((string host, JsonObject cell) in new[] { ("Jupyter", inJupyter[i]), ("the runner", inRunner[i]) })
            {
                foreach (string line in PlainTexts(cell).Where(t => t.StartsWith("Measuring ", StringComparison.Ordinal)))
                {
                    if (!ProgressDone().IsMatch(line))
                    {
                        differences.Add($"cell {i + 1}: {host}'s progress line did not reach its final state: {line}");
                    }
                }
            }
        }

        Assert.True(differences.Count == 0, "chapter 00, Jupyter against the headless runner:\n" + string.Join("\n", differences));
    }

    /// <summary>
    /// What a cell's outputs are made of, in order: each output's type, with its MIME types (display data, results) or
    /// its stream's name. Consecutive stream outputs of one stream count as one (Jupyter's client joins them), and
    /// their text is not compared (it holds timings and ports). Left out: the kernel's own script that Jupyter's
    /// first cell shows (<see cref="IsKernelBootstrap"/>), which no cell asked for, and a stderr output that only
    /// carries compiler warnings: the kernel writes a cell's diagnostics to stderr, which the first test judges
    /// (CS1701 there fails it), and a warning is not an output the cell made.
    /// </summary>
    private static string[] Shape(JsonObject cell)
    {
        var shape = new List<string>();
        foreach (JsonObject o in Outputs(cell))
        {
            string type = (string)o["output_type"]!;
            if (IsKernelBootstrap(o) || (type == "stream" && (string?)o["name"] == "stderr" && OnlyWarnings(StreamText(o))))
            {
                continue;
            }

            string entry = type == "stream"
                ? $"stream {(string?)o["name"]}"
                : $"{type} {string.Join("+", (o["data"] as JsonObject ?? []).Select(p => p.Key).Order(StringComparer.Ordinal))}";
            if (type != "stream" || shape.Count == 0 || shape[^1] != entry)
            {
                shape.Add(entry);
            }
        }

        return [.. shape];
    }

    /// <summary>
    /// The first column of every row of every HTML table the cell shows (the strategies of a results table), with its
    /// header: the figures in the other columns are measured, and differ from run to run, and so does the footer,
    /// whose notes depend on them (a "noisy" note only when a time was).
    /// </summary>
    private static string[] TableRows(JsonObject cell)
        => [.. Outputs(cell).Select(o => Text(o["data"]?["text/html"])).OfType<string>()
            .SelectMany(html => TableSection().Matches(html))
            .SelectMany(section => TableRow().Matches(section.Value))
            .Select(row => CellText().Match(row.Value))
            .Where(first => first.Success)
            .Select(first => WebUtility.HtmlDecode(Tag().Replace(first.Groups["text"].Value, string.Empty)).Trim())];

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
    private static partial Regex CellText();

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
    private const int CellTimeoutSeconds = 1200;

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
        var environment = new Dictionary<string, string>(ToolEnvironment.WithoutRunContext)
        {
            ["PATH"] = JupyterKernel.PathFor(lookup.ToolFolder!),
            ["POOLEDHTTP_PROFILE"] = "quick",
            ["DOTNET_INTERACTIVE_CLI_TELEMETRY_OPTOUT"] = "1",
            ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1",
        };

        var took = Stopwatch.StartNew();
        for (int attempt = 1; ; attempt++)
        {
            string outDir = Path.Combine(Path.GetTempPath(), "pooledhttp-tests", Guid.NewGuid().ToString("N"));
            string[] arguments =
            [
                "nbconvert", "--to", "notebook", "--execute", $"--ExecutePreprocessor.kernel_name={JupyterKernel.KernelName}",
                $"--ExecutePreprocessor.timeout={CellTimeoutSeconds}", "--ExecutePreprocessor.startup_timeout=180",
                // An error output does not stop the run: the test lists every one.
                "--allow-errors", "--output-dir", outDir, Path.Combine(notebooks, Notebook),
            ];
            (int exit, string stdout, string stderr) = await ChildProcess.RunAsync("jupyter", arguments, TimeSpan.FromMinutes(30), environment, workingDirectory: notebooks);
            string written = Path.Combine(outDir, Notebook);
            if (exit == 0 && File.Exists(written))
            {
                var notebook = (JsonObject)JsonNode.Parse(await File.ReadAllTextAsync(written))!;
                return new JupyterExecution(notebook, written, took.Elapsed, attempt, lookup.ToolFolder!);
            }

            if (attempt < Attempts && DiedStarting(stderr))
            {
                continue;
            }

            throw new InvalidOperationException($"jupyter nbconvert did not execute {Notebook} (exit {exit}, attempt {attempt}):\n{stderr}\n{stdout}");
        }
    }

    /// <summary>
    /// The kernel died before it ran a cell because its HTTP API lost a race for a port: kernel.json asks for a port of
    /// 2048-3000, the tool picks the first free one and binds it a moment later, and a kernel starting beside it (any
    /// user's on this machine) can take it in between ("address already in use", then "Kernel died before replying
    /// to kernel_info"). Seen here with two kernels started within a second.
    /// </summary>
    private static bool DiedStarting(string stderr)
        => stderr.Contains("Kernel died before replying to kernel_info", StringComparison.Ordinal)
            && stderr.Contains("address already in use", StringComparison.OrdinalIgnoreCase);
}
