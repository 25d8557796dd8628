using System.Diagnostics.Metrics;

namespace PooledHttp.Workshop.Load;

/// <summary>
/// Counts, from the library's own <c>PooledHttp</c> meter, the rents that found no free array and allocated one, the
/// misses served by an array the pool had let go of (reclaimed), and the returns the budget refused, over the
/// measured downloads: what says whether an allocation came from the pool.
/// </summary>
/// <remarks>The listener reads the measurements as spans of tags, so listening allocates nothing per rent.</remarks>
internal sealed class PoolEvents : IDisposable
{
    private readonly MeterListener _listener = new();
    private long _misses;
    private long _refused;
    private long _reclaimed;

    public PoolEvents()
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == "PooledHttp" && instrument.Name is "pooledhttp.pool.rents" or "pooledhttp.pool.returns" or "pooledhttp.pool.reclaimed")
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            if (instrument.Name == "pooledhttp.pool.reclaimed")
            {
                Interlocked.Add(ref _reclaimed, value);
                return;
            }

            foreach (KeyValuePair<string, object?> tag in tags)
            {
                if (tag is { Key: "pooledhttp.pool.hit", Value: false })
                {
                    Interlocked.Add(ref _misses, value);
                }
                else if (tag is { Key: "pooledhttp.pool.kept", Value: false })
                {
                    Interlocked.Add(ref _refused, value);
                }
            }
        });
        _listener.Start();
    }

    /// <summary>Rents that found no free array and allocated one (a reclaimed miss allocates nothing).</summary>
    public long Misses => Interlocked.Read(ref _misses) - Reclaimed;

    /// <summary>Rents that found no free array and took back one the pool had let go of.</summary>
    public long Reclaimed => Interlocked.Read(ref _reclaimed);

    /// <summary>Returns the budget refused.</summary>
    public long Refused => Interlocked.Read(ref _refused);

    public void Dispose() => _listener.Dispose();
}
