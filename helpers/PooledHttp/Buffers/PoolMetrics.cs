using System.Diagnostics.Metrics;

namespace PooledHttp.Buffers;

/// <summary>
/// The <c>PooledHttp</c> meter's instruments for <see cref="BoundedArrayPool"/>: what <c>dotnet-counters</c> and
/// OpenTelemetry see of every pool, tagged with its name. Counting costs nothing while nobody listens: an
/// instrument without a listener returns at once, and the tags are cached objects, so nothing is boxed per call.
/// </summary>
internal static class PoolMetrics
{
    /// <summary>The meter's name, as a listener asks for it.</summary>
    public const string MeterName = "PooledHttp";

    private const string PoolTag = "pooledhttp.pool.name";

    private static readonly Meter Meter = new(MeterName);
    private static readonly object True = true;
    private static readonly object False = false;

    private static readonly Counter<long> Rents = Meter.CreateCounter<long>("pooledhttp.pool.rents", "{array}", "Rents of body-sized arrays; pooledhttp.pool.hit says whether a free array was there.");
    private static readonly Counter<long> Returns = Meter.CreateCounter<long>("pooledhttp.pool.returns", "{array}", "Returns of body-sized arrays; pooledhttp.pool.kept is false when the budget refused one.");
    private static readonly Counter<long> Reclaims = Meter.CreateCounter<long>("pooledhttp.pool.reclaimed", "{array}", "Rents that found no free array and took back one the pool had let go of past its budget, before the GC collected it (a miss that allocated nothing).");
    private static readonly Counter<long> TrimmedBytes = Meter.CreateCounter<long>("pooledhttp.pool.trimmed", "By", "Bytes of free arrays dropped by trims.");

    /// <summary>Pools the gauges report on, held weakly: a pool nobody uses is collected as if it were not measured.</summary>
    private static readonly List<WeakReference<BoundedArrayPool>> Pools = [];

    static PoolMetrics()
    {
        Meter.CreateObservableGauge("pooledhttp.pool.retained", () => Observe(pool => pool.RetainedBytes), "By", "Bytes held in free arrays.");
        Meter.CreateObservableGauge("pooledhttp.pool.retained_arrays", () => Observe(pool => pool.RetainedArrays), "{array}", "Free arrays held.");
    }

    /// <summary>Adds <paramref name="pool"/> to what the gauges report.</summary>
    public static void Track(BoundedArrayPool pool)
    {
        lock (Pools)
        {
            // Forget collected pools before the list doubles, so a process that makes many pools keeps a short list.
            if (Pools.Count == Pools.Capacity)
            {
                Pools.RemoveAll(weak => !weak.TryGetTarget(out _));
            }

            Pools.Add(new WeakReference<BoundedArrayPool>(pool));
        }
    }

    public static void Rented(BoundedArrayPool pool, bool hit)
    {
        if (Rents.Enabled)
        {
            Rents.Add(1, new KeyValuePair<string, object?>(PoolTag, pool.Name), new KeyValuePair<string, object?>("pooledhttp.pool.hit", hit ? True : False));
        }
    }

    public static void Reclaimed(BoundedArrayPool pool)
    {
        if (Reclaims.Enabled)
        {
            Reclaims.Add(1, new KeyValuePair<string, object?>(PoolTag, pool.Name));
        }
    }

    public static void Returned(BoundedArrayPool pool, bool kept)
    {
        if (Returns.Enabled)
        {
            Returns.Add(1, new KeyValuePair<string, object?>(PoolTag, pool.Name), new KeyValuePair<string, object?>("pooledhttp.pool.kept", kept ? True : False));
        }
    }

    public static void Trimmed(BoundedArrayPool pool, long bytes)
    {
        if (bytes > 0 && TrimmedBytes.Enabled)
        {
            TrimmedBytes.Add(bytes, new KeyValuePair<string, object?>(PoolTag, pool.Name));
        }
    }

    private static List<Measurement<long>> Observe(Func<BoundedArrayPool, long> read)
    {
        var measurements = new List<Measurement<long>>();
        lock (Pools)
        {
            foreach (WeakReference<BoundedArrayPool> weak in Pools)
            {
                if (weak.TryGetTarget(out BoundedArrayPool? pool))
                {
                    measurements.Add(new Measurement<long>(read(pool), new KeyValuePair<string, object?>(PoolTag, pool.Name)));
                }
            }
        }

        return measurements;
    }
}
