namespace PooledHttp.Workshop.Server;

/// <summary>
/// Counts the bodies a server is writing right now and the most it was writing at once since the last
/// <see cref="ResetPeak"/>: the proof that downloads said to be "in flight together" really overlapped. On
/// loopback a body written in one go reaches the client at once, so downloads started together can still
/// run one after another; the peak tells.
/// </summary>
[System.Diagnostics.DebuggerDisplay("{Current} writing, peak {Peak}")]
public sealed class TransferGauge
{
    private int _current;
    private int _peak;

    /// <summary>Bodies being written now.</summary>
    public int Current => Volatile.Read(ref _current);

    /// <summary>The most bodies written at once since the last reset.</summary>
    public int Peak => Volatile.Read(ref _peak);

    /// <summary>Starts the peak afresh from the bodies being written now.</summary>
    /// <returns>The peak before the reset.</returns>
    public int ResetPeak() => Interlocked.Exchange(ref _peak, Current);

    /// <summary>A body's first byte is about to go out.</summary>
    internal void Enter()
    {
        int now = Interlocked.Increment(ref _current);
        int peak;
        while (now > (peak = Volatile.Read(ref _peak)) && Interlocked.CompareExchange(ref _peak, now, peak) != peak)
        {
        }
    }

    /// <summary>A body's last byte went out, or the body failed.</summary>
    internal void Exit() => Interlocked.Decrement(ref _current);
}
