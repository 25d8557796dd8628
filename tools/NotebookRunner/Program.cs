using System.Diagnostics;
using System.Globalization;
using NotebookRunner;

const string Help = """
    NotebookRunner: runs the workshop's C# notebooks with no editor.

    usage: dotnet run --project tools/NotebookRunner -- [notebooks...] [--quick] [--out DIR] [--cell-timeout MINUTES]

      notebooks        .ipynb files to run, in the order given. None: every notebook under notebooks/, in name order.
      --quick          the quick measuring profile (fewer iterations; allocation figures stay honest). For CI and dry runs.
      --out DIR        where executed notebooks, charts (HTML, plotly.js embedded) and results (CSV) go. Default: artifacts/
      --cell-timeout   give up on a cell that runs longer than this many minutes (default 30).
      --help           this text.

    Exit code 0 only when every cell of every notebook ran and every benchmark produced reports.
    """;

var notebooks = new List<string>();
bool quick = false;
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

string root = FindRoot();
if (notebooks.Count == 0)
{
    notebooks.AddRange(Directory.EnumerateFiles(Path.Combine(root, "notebooks"), "*.ipynb").Order(StringComparer.Ordinal));
}

string output = Path.GetFullPath(outDir ?? Path.Combine(root, "artifacts"));
Directory.CreateDirectory(output);
Environment.SetEnvironmentVariable("POOLEDHTTP_OUTPUT", output);
Environment.SetEnvironmentVariable("POOLEDHTTP_PROFILE", quick ? "quick" : "default");

Console.WriteLine($"Running {notebooks.Count} notebook(s), {(quick ? "quick" : "default")} profile, output in {output}");
var total = Stopwatch.StartNew();
var failures = new List<string>();
var resultFiles = new Dictionary<string, int>();
foreach (string path in notebooks)
{
    string full = Path.GetFullPath(path);
    if (!File.Exists(full))
    {
        failures.Add($"{path}: no such notebook");
        Console.Error.WriteLine($"x {path}: no such notebook");
        continue;
    }

    string results = Path.Combine(output, "results", Path.GetFileNameWithoutExtension(full) + ".csv");
    resultFiles[results] = File.Exists(results) ? File.ReadAllLines(results).Length : 0;
    string? failure = await RunNotebookAsync(full, output, TimeSpan.FromMinutes(cellTimeoutMinutes));
    if (failure is not null)
    {
        failures.Add(failure);
    }
}

ResultsTable.Print(resultFiles, Console.Out);
Console.WriteLine($"Finished in {total.Elapsed.TotalSeconds:0.0} s.");
if (failures.Count > 0)
{
    Console.Error.WriteLine($"{failures.Count} notebook(s) failed:");
    failures.ForEach(f => Console.Error.WriteLine("  " + f));
    return 1;
}

return 0;

static async Task<string?> RunNotebookAsync(string path, string output, TimeSpan cellTimeout)
{
    NotebookFile notebook;
    try
    {
        notebook = NotebookFile.Load(path);
    }
    catch (InvalidDataException e)
    {
        Console.Error.WriteLine($"x {e.Message}");
        return e.Message;
    }

    string directory = Path.GetDirectoryName(path)!;
    string previous = Environment.CurrentDirectory;
    Environment.CurrentDirectory = directory; // as in VS Code: the kernel starts in the notebook's folder
    var session = new ScriptSession(directory);
    var clock = Stopwatch.StartNew();
    List<NotebookFile.Cell> cells = notebook.CodeCells.ToList();
    string? failure = null;
    Console.WriteLine($"== {notebook.Name} ({cells.Count} code cells)");
    try
    {
        int executed = 0;
        foreach (NotebookFile.Cell cell in cells)
        {
            if (cell.Language is not ("csharp" or "C#"))
            {
                failure = $"{notebook.Name}, cell {cell.Number}: language '{cell.Language}' is not supported by the headless runner";
                break;
            }

            var cellClock = Stopwatch.StartNew();
            Console.WriteLine($"-- {notebook.Name} cell {cell.Number}: {FirstLine(cell.Source)}");
            Task<List<CellOutput>> run = session.RunAsync(cell.Source, Console.Out);
            if (await Task.WhenAny(run, Task.Delay(cellTimeout)) != run)
            {
                failure = $"{notebook.Name}, cell {cell.Number}: still running after {cellTimeout.TotalMinutes} minutes";
                Console.Error.WriteLine("x " + failure);
                notebook.Save(Path.Combine(output, "notebooks", notebook.Name + ".ipynb"));
                Console.Error.Flush();
                Environment.Exit(3); // a hung cell cannot be cancelled; leave rather than hang an unattended run
            }

            List<CellOutput> outputs = await run;
            cell.SetOutputs(outputs, ++executed);
            Console.WriteLine($"   done in {cellClock.Elapsed.TotalSeconds:0.0} s ({outputs.Count(o => o.IsHtml)} HTML output(s))");
            if (outputs.FirstOrDefault(o => o.IsError) is { } error)
            {
                failure = $"{notebook.Name}, cell {cell.Number}: {error.Json["ename"]}: {error.Json["evalue"]}";
                Console.Error.WriteLine("x " + failure);
                break;
            }
        }
    }
    finally
    {
        Environment.CurrentDirectory = previous;
    }

    string executedPath = Path.Combine(output, "notebooks", notebook.Name + ".ipynb");
    notebook.Save(executedPath);
    Console.WriteLine($"== {notebook.Name}: {(failure is null ? "ok" : "FAILED")} in {clock.Elapsed.TotalSeconds:0.0} s, written to {executedPath}");
    return failure;
}

static string FirstLine(string source)
{
    string line = source.Split('\n').Select(l => l.Trim()).FirstOrDefault(l => l.Length > 0) ?? string.Empty;
    return line.Length > 70 ? line[..70] + "..." : line;
}

static string FindRoot()
{
    // From the current directory first (a user's shell), then from the runner's own folder.
    foreach (string start in new[] { Environment.CurrentDirectory, AppContext.BaseDirectory })
    {
        for (var dir = new DirectoryInfo(start); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "PooledHttp.slnx")))
            {
                return dir.FullName;
            }
        }
    }

    throw new InvalidOperationException("Run the notebook runner from inside the workshop repository (PooledHttp.slnx not found).");
}
