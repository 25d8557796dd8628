using System.Diagnostics;
using System.Globalization;
using PooledHttp.Workshop.Notebooks;

namespace PooledHttp.Workshop.Measuring;

/// <summary>
/// Keeps one live line under a measuring cell: which case of how many is running and the time elapsed,
/// refreshed as each case starts and every few seconds between, so a run of minutes never looks hung.
/// </summary>
internal sealed class ProgressReporter : IDisposable
{
    /// <summary>Often enough to show the clock moving, rarely enough not to flood a console log.</summary>
    private static readonly TimeSpan Refresh = TimeSpan.FromSeconds(10);

    private readonly object _gate = new();
    private readonly string _title;
    private readonly int _cases;
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private readonly LiveOutput _output;
    private readonly Timer _timer;
    private int _started;
    private string _current = "building the benchmarks (the first run takes about a minute)";
    private bool _finished;

    public ProgressReporter(string title, int cases)
    {
        _title = title;
        _cases = cases;
        _output = LiveOutput.Show(Line());
        _timer = new Timer(_ => Show(), null, Refresh, Refresh);
    }

    public void CaseStarted(string name)
    {
        lock (_gate)
        {
            _started++;
            _current = $"case {_started} of {_cases}: {name}";
        }

        Show();
    }

    public void Finish(int reports)
    {
        lock (_gate)
        {
            _finished = true;
            _current = $"done: {reports} of {_cases} case(s) reported";
        }

        _timer.Change(Timeout.Infinite, Timeout.Infinite);
        _output.Update(Line());
    }

    public void Dispose()
    {
        _timer.Dispose();
        lock (_gate)
        {
            if (!_finished)
            {
                _finished = true;
                _current = $"stopped at case {_started} of {_cases}";
                _output.Update(Line());
            }
        }
    }

    private void Show()
    {
        lock (_gate)
        {
            if (!_finished)
            {
                _output.Update(Line());
            }
        }
    }

    private string Line()
    {
        TimeSpan elapsed = _clock.Elapsed;
        return string.Create(CultureInfo.InvariantCulture, $"{_title} · {_current} · {(int)elapsed.TotalMinutes}:{elapsed.Seconds:00} elapsed");
    }
}
