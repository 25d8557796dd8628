using System.CommandLine;
using PooledHttp.Tools;

namespace NotebookRunner;

/// <summary>The runner's command line: chapters by number or notebooks by path, and the options of a run.</summary>
internal static class RunnerCommand
{
    /// <summary>Internal: the parent starts one child per notebook with this flag, as an editor starts one kernel per notebook.</summary>
    public const string ChildFlag = "--in-this-process";

    /// <summary>The command; <paramref name="run"/> gets what was asked for, and <paramref name="chapters"/> is where chapter numbers are looked up.</summary>
    public static RootCommand Create(string chapters, Func<RunnerOptions, Task<int>> run)
    {
        var notebooks = new Argument<string[]>("chapters or notebooks")
        {
            Description = "Chapters by number as their file names begin (00 to 09, 04a; 4 is 04), or .ipynb/.dib files by path, run in the order given. None: every .ipynb under notebooks/, in name order.",
            Arity = ArgumentArity.ZeroOrMore,
            CustomParser = result => [.. result.Tokens.Select(token =>
            {
                if (File.Exists(token.Value) || !Chapters.IsNumber(token.Value))
                {
                    return Path.GetFullPath(token.Value); // a notebook that is not there is reported with the run's summary
                }

                if (Chapters.Find(chapters, token.Value) is { } path)
                {
                    return path;
                }

                result.AddError(Chapters.Unknown(chapters, token.Value));
                return token.Value;
            })],
        }.RejectingUnknownOptions();
        var quick = new Option<bool>("--quick") { Description = "The quick measuring profile: fewer iterations, rougher figures. For CI and dry runs." };
        var output = new Option<string>("--out")
        {
            Description = "Where executed notebooks, charts (HTML, plotly.js embedded), results (CSV) and the report go: report.html for the whole series on one offline page, report-04.html and so on for a run of some chapters. Default: artifacts/",
            HelpName = "folder",
        };
        Option<double> cellTimeout = ToolCommandLine.PositiveNumber("--cell-timeout", "Give up on a cell that runs longer than this many minutes.", 30);
        var child = new Option<bool>(ChildFlag) { Hidden = true };

        var command = new RootCommand(
            "Runs the workshop's C# notebooks with no editor, each in a process of its own that hosts the .NET Interactive C# kernel.\n"
            + "  dotnet run --project tools/NotebookRunner -c Release -- 04\n"
            + "A failing notebook does not stop the others. The run ends with the rows each notebook measured and a summary, "
            + "and the exit code is 0 only when every cell of every notebook ran.")
        {
            notebooks, quick, output, cellTimeout, child,
        };
        command.SetAction((parsed, _) => run(new RunnerOptions(
            parsed.GetValue(notebooks) ?? [],
            parsed.GetValue(quick),
            parsed.GetValue(output),
            TimeSpan.FromMinutes(parsed.GetValue(cellTimeout)),
            parsed.GetValue(child))));
        return command;
    }
}
