using System.Text;

namespace NotebookRunner;

/// <summary>
/// The runner's console, through which every notebook process's output passes. On a terminal the live progress
/// lines of a measuring cell (<c>[update] ...</c>, one every few seconds) replace one another in place: carriage
/// return, clear to the end of the line. In a log (output redirected) each update stays a line of its own.
/// </summary>
internal sealed class ProgressConsole : TextWriter
{
    /// <summary>How the notebook's process marks a display's update (CellOutputs).</summary>
    public const string UpdateMarker = "[update] ";

    /// <summary>Back to the line's start and clear it (ANSI: CR, then erase to the end of the line).</summary>
    private const string Rewrite = "\r\u001b[K";

    private readonly Lock _gate = new();
    private readonly TextWriter _inner;
    private readonly bool _inPlace;
    private readonly Func<int> _width;
    private bool _open;

    /// <param name="inner">Where the text goes.</param>
    /// <param name="redirected">Whether <paramref name="inner"/> is a file or a pipe rather than a terminal.</param>
    /// <param name="width">The terminal's width: a line drawn in place is cut to it, as a wrapped one could not be rewritten.</param>
    public ProgressConsole(TextWriter inner, bool redirected, Func<int> width)
    {
        _inner = inner;
        _inPlace = !redirected;
        _width = width;
    }

    public override Encoding Encoding => _inner.Encoding;

    /// <summary>Makes this the console's standard output and standard error (an error starts on a line of its own).</summary>
    public static ProgressConsole Install()
    {
        var console = new ProgressConsole(Console.Out, Console.IsOutputRedirected, () => Console.WindowWidth);
        Console.SetOut(console);
        Console.SetError(new LineEnding(console, Console.Error));
        return console;
    }

    public override void WriteLine(string? value)
    {
        lock (_gate)
        {
            if (_inPlace && value is not null && value.TrimStart().StartsWith(UpdateMarker, StringComparison.Ordinal))
            {
                int width = Math.Max(_width() - 1, 20);
                _inner.Write(Rewrite + (value.Length > width ? value[..width] : value));
                _inner.Flush();
                _open = true;
                return;
            }

            EndLine();
            _inner.WriteLine(value);
        }
    }

    public override void Write(char value)
    {
        lock (_gate)
        {
            EndLine();
            _inner.Write(value);
        }
    }

    public override void Write(string? value)
    {
        lock (_gate)
        {
            EndLine();
            _inner.Write(value);
        }
    }

    public override void Flush() => _inner.Flush();

    /// <summary>Ends a progress line drawn in place, so what comes next starts on a line of its own; the last update stays on screen.</summary>
    private void EndLine()
    {
        if (_open)
        {
            _inner.WriteLine();
            _open = false;
        }
    }

    /// <summary>Standard error, which ends an open progress line before it writes.</summary>
    private sealed class LineEnding(ProgressConsole console, TextWriter error) : TextWriter
    {
        public override Encoding Encoding => error.Encoding;

        public override void Write(char value) => Write(value.ToString());

        public override void Write(string? value)
        {
            lock (console._gate)
            {
                console.EndLine();
                console._inner.Flush();
                error.Write(value);
            }
        }

        public override void Flush() => error.Flush();
    }
}
