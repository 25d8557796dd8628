namespace PooledHttp.Workshop.Watching;

/// <summary>
/// One interval of a watched process, as <c>dotnet-counters</c> would show it: the runtime's counters for that
/// interval, the <c>ArrayPool</c> events seen in it, and the library's body pools as its <c>PooledHttp</c> meter
/// reported them (zero in a process that uses no body pool).
/// </summary>
/// <param name="Second">Seconds since the watch began (the runtime's counter timestamps).</param>
/// <param name="AllocatedBytes">Bytes allocated in the interval (<c>alloc-rate</c>).</param>
/// <param name="Gen2Collections">Gen2 collections in the interval (<c>gen-2-gc-count</c>).</param>
/// <param name="LohBytes">The large object heap's size at the last collection (<c>loh-size</c>).</param>
/// <param name="GcPauseMs">Time the process was paused by the GC in the interval (<c>total-pause-time-by-gc</c>, a running total, differenced).</param>
/// <param name="PoolRents">Arrays rented from the runtime's <c>ArrayPool&lt;T&gt;</c> pools (<c>BufferRented</c> events).</param>
/// <param name="PoolAllocations">Arrays those pools had to allocate because none was free or the size was too big (<c>BufferAllocated</c>).</param>
public sealed record CounterSecond(double Second, double AllocatedBytes, double Gen2Collections, double LohBytes, double GcPauseMs, int PoolRents, int PoolAllocations)
{
    /// <summary>Rents a body pool served from a free array (<c>pooledhttp.pool.rents</c>, <c>pooledhttp.pool.hit=true</c>).</summary>
    public long BodyPoolHits { get; init; }

    /// <summary>Rents a body pool had to allocate for (<c>pooledhttp.pool.rents</c>, <c>pooledhttp.pool.hit=false</c>).</summary>
    public long BodyPoolMisses { get; init; }

    /// <summary>Returns a body pool's budget refused, so the array was left to the GC (<c>pooledhttp.pool.returns</c>, <c>pooledhttp.pool.kept=false</c>).</summary>
    public long BodyPoolRefusedReturns { get; init; }

}
