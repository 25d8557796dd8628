using System.Diagnostics;

namespace NotebookRunner;

/// <summary>Runs one notebook in this process, cell by cell, and writes the executed copy.</summary>
internal static class NotebookExecution
{
    /// <summary>Exit codes: 0 every cell ran, 1 a cell failed, 3 a cell hung past the timeout.</summary>
    public static async Task<int> RunAsync(string path, string output, TimeSpan cellTimeout)
    {
        NotebookFile notebook;
        try
        {
            notebook = NotebookFile.Load(path);
        }
        catch (InvalidDataException e)
        {
            Console.Error.WriteLine(e.Message);
            NotebookSummary.Finish(output, Path.GetFileNameWithoutExtension(path), e.Message);
            return 1;
        }

        string directory = Path.GetDirectoryName(path)!;
        Environment.CurrentDirectory = directory; // as in an editor: the kernel works in the notebook's folder
        TextWriter live = Console.Out; // before the kernel swaps the console for its own, per cell
        using var session = new KernelSession(live);
        var clock = Stopwatch.StartNew();
        List<NotebookFile.Cell> cells = notebook.CodeCells.ToList();
        cells.ForEach(c => c.ClearOutputs()); // a cell that does not run keeps no output of an earlier run
        string executedPath = Path.Combine(output, "notebooks", notebook.Name + ".ipynb");
        string? failure = null;
        Console.WriteLine($"== {notebook.Name} ({cells.Count} code cells, process {Environment.ProcessId})");
        int executed = 0;
        foreach (NotebookFile.Cell cell in cells)
        {
            if (cell.Language is not ("csharp" or "C#"))
            {
                failure = $"cell {cell.Number}: language '{cell.Language}' is not supported by the headless runner";
                break;
            }

            if (string.IsNullOrWhiteSpace(cell.Source))
            {
                continue; // as nbclient: a blank cell is not sent to the kernel and gets no execution count
            }

            var cellClock = Stopwatch.StartNew();
            live.WriteLine($"-- {notebook.Name} cell {cell.Number}: {FirstLine(cell.Source)}");
            Task<(List<CellOutput> Outputs, string? Failure)> run = session.RunAsync(cell.Source, ++executed);
            if (await Task.WhenAny(run, Task.Delay(cellTimeout)) != run)
            {
                failure = $"cell {cell.Number}: still running after {cellTimeout.TotalMinutes} minutes";
                Console.Error.WriteLine($"{notebook.Name}, {failure}");
                cell.SetOutputs(session.OutputsSoFar(), executed); // what the hung cell showed, as a front end keeps it
                notebook.Save(executedPath);
                NotebookSummary.Finish(output, notebook.Name, failure);
                Console.Error.Flush();
                return 3; // a hung cell cannot be cancelled; this process ends and the next notebook gets a fresh one
            }

            (List<CellOutput> outputs, string? failed) = await run;
            cell.SetOutputs(outputs, executed);
            live.WriteLine($"   done in {cellClock.Elapsed.TotalSeconds:0.0} s ({outputs.Count(o => o.IsHtml)} HTML output(s))");
            if (failed is not null)
            {
                failure = $"cell {cell.Number}: {failed}";
                break;
            }
        }

        notebook.Save(executedPath);
        NotebookSummary.Finish(output, notebook.Name, failure);
        Console.WriteLine($"== {notebook.Name}: {(failure is null ? "ok" : "FAILED")} in {clock.Elapsed.TotalSeconds:0.0} s, written to {executedPath}");
        if (failure is not null)
        {
            Console.Error.WriteLine($"{notebook.Name}, {failure}");
            return 1;
        }

        return 0;
    }

    private static string FirstLine(string source)
    {
        string line = source.Split('\n').Select(l => l.Trim()).FirstOrDefault(l => l.Length > 0) ?? string.Empty;
        return line.Length > 70 ? line[..70] + "..." : line;
    }
}
