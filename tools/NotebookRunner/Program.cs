using System.Diagnostics;
using System.Globalization;
using NotebookRunner;
using PooledHttp.Tools;

// Why a notebook named on the command line did not run: its file is not there (and it gets no report).
const string NoSuchNotebook = "no such notebook";
string root = PooledHttp.RepositoryRoot.Find();
return await ToolCommandLine.InvokeAsync(RunnerCommand.Create(Path.Combine(root, "notebooks"), RunAsync), args);

async Task<int> RunAsync(RunnerOptions options)
{
    string output = Path.GetFullPath(options.Output ?? Path.Combine(root, "artifacts"));
    Directory.CreateDirectory(output);
    // What every notebook process and its children read: where results go (and so, that the runner runs them) and the profile.
    new PooledHttp.Workshop.Server.RunContext { Output = output, Profile = options.Quick ? "quick" : "default" }.SetForThisProcess();
    if (options.Child)
    {
        return options.Notebooks.Count == 1
            ? await NotebookExecution.RunAsync(options.Notebooks[0], output, options.CellTimeout)
            : ToolCommandLine.UsageError;
    }

    List<string> notebooks = options.Notebooks.Count > 0
        ? [.. options.Notebooks]
        : [.. Directory.EnumerateFiles(Path.Combine(root, "notebooks"), "*.ipynb").Order(StringComparer.Ordinal)];
    ProgressConsole.Install();
    Console.WriteLine($"Running {notebooks.Count} notebook(s), one process each, {(options.Quick ? "quick" : "default")} profile, output in {output}");
    var total = Stopwatch.StartNew();
    var summary = new List<(string Notebook, string? Failure, TimeSpan Time)>();
    foreach (string full in notebooks)
    {
        string name = Path.GetFileNameWithoutExtension(full);
        var clock = Stopwatch.StartNew();
        string? failure;
        if (!File.Exists(full))
        {
            failure = NoSuchNotebook;
            Console.Error.WriteLine($"{full}: no such notebook");
        }
        else
        {
            NotebookSummary.Clear(output, name);
            int exitCode = await RunChildAsync(full, output, options);
            failure = NotebookSummary.Read(output, name).Failure ?? (exitCode == 0 ? null : $"its process exited with code {exitCode}");
        }

        summary.Add((name, failure, clock.Elapsed));
    }

    Console.WriteLine();
    Console.WriteLine("Notebooks:");
    foreach ((string notebook, string? failure, TimeSpan time) in summary)
    {
        Console.WriteLine($"  {(failure is null ? "passed" : "FAILED"),-7} {time.TotalSeconds,7:0.0} s  {notebook}{(failure is null ? string.Empty : ": " + failure)}");
    }

    // The rows last, just above where the report is: what a learner who edited a chapter came to see.
    List<NotebookSummary> summaries = [.. summary.Select(s => NotebookSummary.Read(output, s.Notebook))];
    NotebookSummary.PrintExercises(summaries, Console.Out);
    NotebookSummary.PrintRows(summaries, Console.Out);
    List<(string Notebook, string? Failure, TimeSpan Time)> ran = [.. summary.Where(s => s.Failure != NoSuchNotebook)];
    if (ran.Count > 0)
    {
        string name = RunReport.FileFor(wholeSeries: options.Notebooks.Count == 0, ran.Select(s => s.Notebook));
        Console.WriteLine($"Report: {RunReport.Write(output, name, ran, options.Quick ? "quick" : "default")} (every chapter's tables and charts, offline: open it in a browser).");
    }

    int failed = summary.Count(s => s.Failure is not null);
    Console.WriteLine($"{summary.Count - failed} passed, {failed} failed, in {total.Elapsed.TotalSeconds:0.0} s.");
    if (failed > 0)
    {
        Console.Error.WriteLine($"{failed} notebook(s) failed:");
        summary.Where(s => s.Failure is not null).ToList().ForEach(s => Console.Error.WriteLine($"  {s.Notebook}: {s.Failure}"));
        return 1;
    }

    return 0;
}

// One child process per notebook: nothing loaded, no static state and no server carries over. Its output
// passes through as it comes; how the notebook ended is in its summary file.
static async Task<int> RunChildAsync(string notebook, string output, RunnerOptions options)
{
    string self = Environment.ProcessPath ?? "dotnet";
    List<string> arguments = Path.GetFileNameWithoutExtension(self).Equals("dotnet", StringComparison.OrdinalIgnoreCase)
        ? [typeof(NotebookExecution).Assembly.Location] // started as "dotnet NotebookRunner.dll"
        : [];
    arguments.AddRange([RunnerCommand.ChildFlag, notebook, "--out", output, "--cell-timeout", options.CellTimeout.TotalMinutes.ToString(CultureInfo.InvariantCulture)]);
    if (options.Quick)
    {
        arguments.Add("--quick");
    }

    return (await PooledHttp.ChildProcess.RunAsync(self, arguments, Timeout.InfiniteTimeSpan, echo: true)).ExitCode;
}
