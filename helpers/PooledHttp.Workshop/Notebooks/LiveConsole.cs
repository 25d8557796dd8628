using System.Text;

namespace PooledHttp.Workshop.Notebooks;

/// <summary>
/// The console of a chapter run as a file-based app (<see cref="ChapterApp"/>), on a terminal: a live progress line
/// (<see cref="LiveOutput"/>'s text, a new one every few seconds while a benchmark runs) is redrawn in place, as the
/// headless runner's console draws it; anything else written ends that line first, so it stays on screen.
/// </summary>
/// <remarks>Installed only on a terminal: in a log or a pipe each update stays a line of its own.</remarks>
public sealed class LiveConsole : TextWriter
{
    /// <summary>Back to the line's start and clear it (ANSI: CR, then erase to the end of the line).</summary>
    private const string Rewrite = "\r\u001b[K";

    private readonly Lock _gate = new();
    private readonly TextWriter _inner;
    private bool _open;

    private LiveConsole(TextWriter inner) => _inner = inner;

    /// <summary>The console installed by <see cref="InstallOnTerminal"/>, or <see langword="null"/>. Not found through
    /// <see cref="Console.Out"/>: <see cref="Console.SetOut"/> wraps the writer it is given in a synchronized one.</summary>
    public static LiveConsole? Installed { get; private set; }

    /// <inheritdoc />
    public override Encoding Encoding => _inner.Encoding;

    /// <summary>Makes this the standard output and error when both go to a terminal; does nothing otherwise.</summary>
    public static void InstallOnTerminal()
    {
        if (Console.IsOutputRedirected || Console.IsErrorRedirected || Installed is not null)
        {
            return;
        }

        var console = new LiveConsole(Console.Out);
        TextWriter error = Console.Error;
        Console.SetOut(console);
        Console.SetError(new ErrorWriter(console, error));
        Installed = console;
    }

    /// <summary>Draws <paramref name="text"/> over the progress line drawn last, cut to the terminal's width (a wrapped line could not be redrawn).</summary>
    public void WriteInPlace(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        lock (_gate)
        {
            int width = Math.Max(SafeWidth() - 1, 20);
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

    private static int SafeWidth()
    {
        try
        {
            return Console.WindowWidth;
        }
        catch (IOException)
        {
            return 80;
        }
    }

    private void EndLine()
    {
        if (_open)
        {
            _inner.WriteLine();
            _open = false;
        }
    }

    /// <summary>Standard error, which ends an open progress line before it writes.</summary>
    private sealed class ErrorWriter(LiveConsole console, TextWriter error) : TextWriter
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
