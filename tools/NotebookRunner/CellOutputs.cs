using Microsoft.DotNet.Interactive;
using Microsoft.DotNet.Interactive.Events;
using Microsoft.DotNet.Interactive.Formatting;

namespace NotebookRunner;

/// <summary>
/// A notebook's outputs as <c>jupyter nbconvert --execute</c> saves them from the .NET kernel's events: the tool's
/// Jupyter handler turns events into messages (dotnet/interactive, <c>src/Microsoft.DotNet.Interactive.Jupyter/ExecuteRequestHandler.cs</c>),
/// nbclient turns messages into outputs and nbconvert's <c>coalesce_streams</c> joins a stream's consecutive writes
/// and drops text a carriage return overwrote. Console text and displays in the order they happened, stdout and
/// stderr as streams of their own, a cell's diagnostics on stderr, a failure as an error output; a display or an
/// update replaces the data of every earlier output that carries its value id, in any cell, and an update changes
/// nothing when none does. Everything is echoed to the runner's console as it happens.
/// </summary>
internal sealed class CellOutputs
{
    private readonly Lock _gate = new();
    private readonly TextWriter _live;
    private readonly Dictionary<string, List<CellOutput>> _displays = new(StringComparer.Ordinal);
    private List<CellOutput> _cell = [];
    private int _executionCount;
    private readonly List<string> _errors = [];

    /// <param name="live">The runner's console: what the kernel sends is echoed there as it comes.</param>
    public CellOutputs(TextWriter live) => _live = live;

    /// <summary>Starts recording the cell that runs next.</summary>
    public void Begin(int executionCount)
    {
        lock (_gate)
        {
            _cell = [];
            _errors.Clear();
            _executionCount = executionCount;
        }
    }

    /// <summary>The running cell's outputs so far, in order.</summary>
    public List<CellOutput> Snapshot()
    {
        lock (_gate)
        {
            _cell.ForEach(o => o.DropOverwrittenText());
            return [.. _cell];
        }
    }

    /// <summary>
    /// Why the cell failed, as the kernel said it: the error diagnostics of a cell that does not compile, or the
    /// exception's message; null while it has not failed.
    /// </summary>
    public string? Failure
    {
        get
        {
            lock (_gate)
            {
                return _errors.Count == 0 ? null : string.Join(Environment.NewLine, _errors);
            }
        }
    }

    /// <summary>Records one event of the kernel.</summary>
    public void On(KernelEvent kernelEvent)
    {
        lock (_gate)
        {
            switch (kernelEvent)
            {
                case StandardOutputValueProduced output:
                    Write("stdout", PlainText(output));
                    break;
                case StandardErrorValueProduced or ErrorProduced:
                    Write("stderr", PlainText((DisplayEvent)kernelEvent));
                    break;
                case DisplayedValueProduced displayed:
                    Add(CellOutput.Display(displayed.FormattedValues, displayed.ValueId));
                    break;
                case ReturnValueProduced { Value: not DisplayedValue } returned:
                    Add(CellOutput.Result(returned.FormattedValues, _executionCount, returned.ValueId));
                    break;
                case DisplayedValueUpdated updated:
                    Update(updated);
                    break;
                case DiagnosticsProduced { FormattedDiagnostics.Count: > 0 } diagnostics:
                    // Jupyter's .NET kernel sends a cell's warnings and errors as stderr text, spaced apart.
                    string text = string.Join(Environment.NewLine + Environment.NewLine, diagnostics.FormattedDiagnostics.Select(d => d.Value));
                    Write("stderr", Environment.NewLine + text + Environment.NewLine + Environment.NewLine);
                    _errors.AddRange(ErrorsOf(diagnostics));
                    break;
                case CommandFailed failed:
                    Fail(failed);
                    break;
            }
        }
    }

    /// <summary>
    /// The errors as the compiler wrote them ("(1,18): error CS0246: ..."): a cell's formatted diagnostics come one per
    /// diagnostic, in the same order; a directive's parser sends one formatted value for all of them, and then each
    /// diagnostic speaks for itself.
    /// </summary>
    private static IEnumerable<string> ErrorsOf(DiagnosticsProduced produced)
    {
        bool paired = produced.FormattedDiagnostics.Count == produced.Diagnostics.Count;
        return produced.Diagnostics
            .Select((d, i) => (d.Severity, Text: paired ? produced.FormattedDiagnostics.ElementAt(i).Value : d.ToString()))
            .Where(d => d.Severity == Microsoft.CodeAnalysis.DiagnosticSeverity.Error)
            .Select(d => d.Text);
    }

    private void Fail(CommandFailed failed)
    {
        if (failed.Exception is CodeSubmissionCompilationErrorException)
        {
            // As Jupyter's .NET kernel: the diagnostics went to stderr already, the error output only names the kind.
            Add(CellOutput.Error("Error", "compilation error", []));
            if (_errors.Count == 0)
            {
                _errors.Add(failed.Message);
            }
        }
        else
        {
            // As the tool's handler: the exception, then each line of its stack trace.
            string[] traceback = failed.Exception is { } e
                ? [e.ToString(), .. (e.StackTrace ?? string.Empty).Split(['\r', '\n'], StringSplitOptions.RemoveEmptyEntries)]
                : [failed.Message];
            Add(CellOutput.Error("Error", failed.Message, traceback));
            _errors.Add(failed.Exception is { } shown ? $"{shown.GetType().Name}: {shown.Message}" : failed.Message);
        }

        _live.WriteLine($"   [error] {_errors[^1]}");
    }

    private void Add(CellOutput output)
    {
        _cell.Add(output);
        if (output.DisplayId is { } id)
        {
            if (_displays.TryGetValue(id, out List<CellOutput>? same))
            {
                same.ForEach(earlier => earlier.Replace(output)); // nbclient: a new output with a known display id updates the earlier ones
            }
            else
            {
                _displays[id] = same = [];
            }

            same.Add(output);
        }

        if (!output.IsError)
        {
            _live.WriteLine($"   [display] {output.Text}");
        }
    }

    private void Update(DisplayedValueUpdated updated)
    {
        if (updated.ValueId is not { } id || !_displays.TryGetValue(id, out List<CellOutput>? shown))
        {
            // What the kernel's display(value).Update(...) sends: an id no output carries (see the kit's LiveOutput).
            _live.WriteLine($"   [update for an id no output carries: nothing changes, as in Jupyter] {PlainText(updated)}");
            return;
        }

        foreach (CellOutput output in shown)
        {
            output.Replace(updated.FormattedValues);
        }

        _live.WriteLine($"{ProgressConsole.UpdateMarker.PadLeft(ProgressConsole.UpdateMarker.Length + 3)}{shown[0].Text}");
    }

    private void Write(string stream, string text)
    {
        if (text.Length == 0)
        {
            return;
        }

        // Consecutive writes to one stream are one output; a display in between starts a new one.
        if (_cell.Count == 0 || _cell[^1].Kind != stream)
        {
            _cell.Add(CellOutput.Stream(stream));
        }

        _cell[^1].Append(text);
        _live.Write(text);
    }

    private static string PlainText(DisplayEvent displayEvent)
        => displayEvent.FormattedValues.FirstOrDefault(v => v.MimeType == PlainTextFormatter.MimeType)?.Value
           ?? displayEvent.Value?.ToString()
           ?? string.Empty;
}
