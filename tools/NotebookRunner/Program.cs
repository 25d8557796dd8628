using System.Diagnostics;
using System.Globalization;
using NotebookRunner;

const string Help = """
    NotebookRunner: runs the workshop's C# notebooks with no editor, each in a process of its own,
    compiled with exactly the .NET Interactive C# kernel's imports and helpers.

    usage: dotnet run --project tools/NotebookRunner -c Release -- [notebooks...] [--quick] [--out DIR] [--cell-timeout MINUTES]

      notebooks        .ipynb or .dib files to run, in the order given. None: every .ipynb under notebooks/, in name order.
      --quick          the quick measuring profile (fewer iterations, rougher times). For CI and dry runs.
      --out DIR        where executed notebooks, charts (HTML, plotly.js embedded), results (CSV) and report.html
                       (the whole run on one offline page) go. Default: artifacts/
      --cell-timeout   give up on a cell that runs longer than this many minutes (default 30).
      --help           this text.

    A failing notebook does not stop the others. The run ends with a summary of every notebook, and
    the exit code is 0 only when every cell of every notebook ran.
    """;

// Internal: the parent starts one child per notebook with this flag, as an editor starts one kernel per notebook.
const string ChildFlag = "--in-this-process";

var notebooks = new List<string>();
bool quick = false;
bool child = false;
string? outDir = null;
double cellTimeoutMinutes = 30;
for (int i = 0; i < args.Length; i++)
{
    switch (args[i])
    {
        case "--help" or "-h" or "-?":
            Console.WriteLine(Help);
            return 0;
        case "--quick":
            quick = true;
            break;
        case ChildFlag:
            child = true;
            break;
        case "--out" when i + 1 < args.Length:
            outDir = args[++i];
            break;
        case "--cell-timeout" when i + 1 < args.Length && double.TryParse(args[i + 1], CultureInfo.InvariantCulture, out double minutes) && minutes > 0:
            cellTimeoutMinutes = minutes;
            i++;
            break;
        case var flag when flag.StartsWith('-'):
            Console.Error.WriteLine($"Unknown or incomplete option '{flag}'.{Environment.NewLine}{Help}");
            return 2;
        default:
            notebooks.Add(args[i]);
            break;
    }
}

string root = PooledHttp.RepositoryRoot.Find();
string output = Path.GetFullPath(outDir ?? Path.Combine(root, "artifacts"));
Directory.CreateDirectory(output);
Environment.SetEnvironmentVariable("POOLEDHTTP_OUTPUT", output);
Environment.SetEnvironmentVariable("POOLEDHTTP_PROFILE", quick ? "quick" : "default");
TimeSpan cellTimeout = TimeSpan.FromMinutes(cellTimeoutMinutes);

if (child)
{
    return notebooks.Count == 1
        ? await NotebookExecution.RunAsync(Path.GetFullPath(notebooks[0]), output, cellTimeout)
        : 2;
}

if (notebooks.Count == 0)
{
    notebooks.AddRange(Directory.EnumerateFiles(Path.Combine(root, "notebooks"), "*.ipynb").Order(StringComparer.Ordinal));
}

Console.WriteLine($"Running {notebooks.Count} notebook(s), one process each, {(quick ? "quick" : "default")} profile, output in {output}");
var total = Stopwatch.StartNew();
var summary = new List<(string Notebook, string? Failure, TimeSpan Time)>();
foreach (string path in notebooks)
{
    string full = Path.GetFullPath(path);
    string name = Path.GetFileNameWithoutExtension(full);
    var clock = Stopwatch.StartNew();
    string? failure;
    if (!File.Exists(full))
    {
        failure = "no such notebook";
        Console.Error.WriteLine($"{path}: no such notebook");
    }
    else
    {
        NotebookSummary.Clear(output, name);
        int exitCode = await RunChildAsync(full);
        failure = NotebookSummary.Read(output, name).Failure ?? (exitCode == 0 ? null : $"its process exited with code {exitCode}");
    }

    summary.Add((name, failure, clock.Elapsed));
}

List<NotebookSummary> summaries = [.. summary.Select(s => NotebookSummary.Read(output, s.Notebook))];
NotebookSummary.PrintRows(summaries, Console.Out);
Console.WriteLine();
Console.WriteLine("Notebooks:");
foreach ((string notebook, string? failure, TimeSpan time) in summary)
{
    Console.WriteLine($"  {(failure is null ? "passed" : "FAILED"),-7} {time.TotalSeconds,7:0.0} s  {notebook}{(failure is null ? string.Empty : ": " + failure)}");
}

NotebookSummary.PrintExercises(summaries, Console.Out);
Console.WriteLine($"Report: {RunReport.Write(output, summary, quick ? "quick" : "default")} (every chapter's tables and charts, offline).");
int failed = summary.Count(s => s.Failure is not null);
Console.WriteLine($"{summary.Count - failed} passed, {failed} failed, in {total.Elapsed.TotalSeconds:0.0} s.");
if (failed > 0)
{
    Console.Error.WriteLine($"{failed} notebook(s) failed:");
    summary.Where(s => s.Failure is not null).ToList().ForEach(s => Console.Error.WriteLine($"  {s.Notebook}: {s.Failure}"));
    return 1;
}

return 0;

// One child process per notebook: nothing loaded, no static state and no server carries over. Its output
// passes through as it comes; how the notebook ended is in its summary file.
async Task<int> RunChildAsync(string notebook)
{
    string self = Environment.ProcessPath ?? "dotnet";
    List<string> arguments = Path.GetFileNameWithoutExtension(self).Equals("dotnet", StringComparison.OrdinalIgnoreCase)
        ? [typeof(NotebookExecution).Assembly.Location] // started as "dotnet NotebookRunner.dll"
        : [];
    arguments.AddRange([ChildFlag, notebook, "--out", output, "--cell-timeout", cellTimeoutMinutes.ToString(CultureInfo.InvariantCulture)]);
    if (quick)
    {
        arguments.Add("--quick");
    }

    return (await PooledHttp.ChildProcess.RunAsync(self, arguments, Timeout.InfiniteTimeSpan, echo: true)).ExitCode;
}
