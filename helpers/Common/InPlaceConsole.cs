using System.Text;

namespace PooledHttp;

/// <summary>
/// A console on which a live progress line (a new one every few seconds while a benchmark runs) is redrawn in place
/// on a terminal: carriage return, clear to the end of the line. Anything else written ends that line first, so it
/// stays on screen; standard error does the same. In a log or a pipe each progress line stays a line of its own.
/// One source file, compiled into the runner (whose console carries every notebook's output) and the kit (a chapter
/// run as a file-based app); docs/architecture.md, "shared source".
/// </summary>
#pragma warning disable CA1852 // Not sealed: the runner's console derives from it; the other projects that compile it in use it as it is.
internal class InPlaceConsole : TextWriter
#pragma warning restore CA1852
{
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
    public InPlaceConsole(TextWriter inner, bool redirected, Func<int> width)
    {
        _inner = inner;
        _inPlace = !redirected;
        _width = width;
    }

    /// <summary>The console <see cref="Install"/> made standard output, or <see langword="null"/>. Not found through
    /// <see cref="Console.Out"/>: <see cref="Console.SetOut"/> wraps the writer it is given in a synchronized one.</summary>
    public static InPlaceConsole? Installed { get; private set; }

    /// <inheritdoc />
    public override Encoding Encoding => _inner.Encoding;

    /// <summary>Makes <paramref name="console"/> the standard output, and standard error a writer that ends its open line first.</summary>
    public static T Install<T>(T console)
        where T : InPlaceConsole
    {
        ArgumentNullException.ThrowIfNull(console);
        TextWriter error = Console.Error;
        Console.SetOut(console);
        Console.SetError(new LineEnding(console, error));
        Installed = console;
        return console;
    }

    /// <summary>The terminal's width, or 80 where there is none to ask or it reports none (a pseudo-terminal without a size).</summary>
    public static int TerminalWidth()
    {
        try
        {
            return Console.WindowWidth > 0 ? Console.WindowWidth : 80;
        }
        catch (IOException)
        {
            return 80;
        }
    }

    /// <summary>Draws <paramref name="text"/> over the progress line drawn last, cut to the terminal's width; a line of its own in a log.</summary>
    public void WriteInPlace(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        lock (_gate)
        {
            if (!_inPlace)
            {
                EndLine();
                _inner.WriteLine(text);
                return;
            }

            int width = Math.Max(_width() - 1, 20);
            string line = text.ReplaceLineEndings(" ");
            _inner.Write(Rewrite + (line.Length > width ? line[..width] : line));
            _inner.Flush();
            _open = true;
        }
    }

    /// <inheritdoc />
    public override void Write(char value)
    {
        lock (_gate)
        {
            EndLine();
            _inner.Write(value);
        }
    }

    /// <inheritdoc />
    public override void Write(string? value)
    {
        lock (_gate)
        {
            EndLine();
            _inner.Write(value);
        }
    }

    /// <inheritdoc />
    public override void WriteLine(string? value)
    {
        lock (_gate)
        {
            EndLine();
            _inner.WriteLine(value);
        }
    }

    /// <inheritdoc />
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
    private sealed class LineEnding(InPlaceConsole console, TextWriter error) : TextWriter
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
