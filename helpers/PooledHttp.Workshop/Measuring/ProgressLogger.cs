using System.Text;
using BenchmarkDotNet.Loggers;

namespace PooledHttp.Workshop.Measuring;

/// <summary>
/// BenchmarkDotNet's log as <see cref="Measure"/> relays it: milestones to the progress line, what went wrong
/// to the console (the cell's output), and the tail kept for error messages. The full log is thousands of lines.
/// </summary>
/// <param name="console">Where errors go; by default the console as it is when each line is written (a notebook host redirects it per cell).</param>
internal sealed class ProgressLogger(TextWriter? console = null) : ILogger
{
    private const int TailLines = 40;
    private readonly Queue<string> _tail = new();
    private readonly StringBuilder _line = new();

    public string Id => nameof(ProgressLogger);

    public int Priority => 0;

    public string Tail => string.Join(Environment.NewLine, _tail);

    /// <summary>Told "Type.Method [Params]" as each case starts.</summary>
    public Action<string>? CaseStarted { get; set; }

    public void Write(LogKind logKind, string text) => _line.Append(text);

    public void WriteLine() => Flush(LogKind.Default);

    public void WriteLine(LogKind logKind, string text)
    {
        _line.Append(text);
        Flush(logKind);
    }

    public void Flush()
    {
    }

    private void Flush(LogKind kind)
    {
        string line = _line.ToString();
        _line.Clear();

        // Logged as an error, but it is xUnit advice that does not apply here: see ShadowCopyWarning.
        if (ShadowCopyWarning.Matches(line))
        {
            return;
        }

        _tail.Enqueue(line);
        while (_tail.Count > TailLines)
        {
            _tail.Dequeue();
        }

        // "// Benchmark: IntroDownload.PooledRead: ShortRun(...) [Size=65536]" starts a case.
        const string CaseLine = "// Benchmark: ";
        if (line.StartsWith(CaseLine, StringComparison.Ordinal))
        {
            string name = line[CaseLine.Length..].Split(": ")[0];
            int parameters = line.LastIndexOf(" [", StringComparison.Ordinal);
            CaseStarted?.Invoke(parameters > 0 ? name + line[parameters..] : name);
        }

        if (kind == LogKind.Error)
        {
            (console ?? Console.Out).WriteLine($"[{DateTime.Now:HH:mm:ss}] {line.TrimStart('/', ' ')}");
        }
    }
}
