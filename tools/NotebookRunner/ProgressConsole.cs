namespace NotebookRunner;

/// <summary>
/// The runner's console, through which every notebook process's output passes: the live progress lines of a
/// measuring cell (<c>[update] ...</c>, one every few seconds) replace one another in place on a terminal
/// (<see cref="PooledHttp.InPlaceConsole"/>); in a log each update stays a line of its own.
/// </summary>
internal sealed class ProgressConsole(TextWriter inner, bool redirected, Func<int> width) : PooledHttp.InPlaceConsole(inner, redirected, width)
{
    /// <summary>How the notebook's process marks a display's update (CellOutputs).</summary>
    public const string UpdateMarker = "[update] ";

    /// <summary>Makes this the console's standard output and standard error (an error starts on a line of its own).</summary>
    public static ProgressConsole Install()
        => Install(new ProgressConsole(Console.Out, Console.IsOutputRedirected, TerminalWidth));

    public override void WriteLine(string? value)
    {
        if (value is not null && value.TrimStart().StartsWith(UpdateMarker, StringComparison.Ordinal))
        {
            WriteInPlace(value);
            return;
        }

        base.WriteLine(value);
    }
}
