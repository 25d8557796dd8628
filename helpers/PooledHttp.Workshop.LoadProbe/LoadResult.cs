namespace PooledHttp.Workshop.Load;

/// <summary>What one load run cost the process that ran it: the load probe prints it as one JSON line, the kit's launcher reads it.</summary>
/// <param name="Strategy">One of <see cref="LoadStrategies.Names"/>.</param>
/// <param name="Concurrency">Downloads in flight at once, as the client started them.</param>
/// <param name="Downloads">Downloads measured, after the warm-up.</param>
/// <param name="BytesReceived">Body bytes received and checked byte for byte.</param>
/// <param name="AllocatedBytes">Bytes the process allocated during the measured downloads.</param>
/// <param name="Gen0">Gen0 collections during them.</param>
/// <param name="Gen1">Gen1 collections during them.</param>
/// <param name="Gen2">Gen2 (full) collections during them.</param>
/// <param name="GcPauseMs">Total time the GC paused the process during them.</param>
/// <param name="ElapsedMs">Wall-clock time of the measured downloads.</param>
/// <param name="PeakWorkingSetBytes">The process's peak working set: over the measured downloads alone when
/// <see cref="PeakWorkingSetMeasuredOnly"/>, warm-up included otherwise.</param>
public sealed record LoadResult(
    string Strategy,
    int Concurrency,
    int Downloads,
    long BytesReceived,
    long AllocatedBytes,
    int Gen0,
    int Gen1,
    int Gen2,
    double GcPauseMs,
    double ElapsedMs,
    long PeakWorkingSetBytes)
{
    /// <summary>The body size the run downloaded.</summary>
    public int BodySize { get; init; }

    /// <summary>Whether the bodies carried a Content-Length (otherwise they were chunked).</summary>
    public bool ContentLength { get; init; }

    /// <summary>
    /// The most bodies the server was writing at once during the run (warm-up included): the load was real
    /// only if this is close to <see cref="Concurrency"/>.
    /// </summary>
    public int PeakOverlap { get; init; }

    /// <summary>Whether <see cref="PeakWorkingSetBytes"/> covers the measured downloads alone: the kernel's peak was reset after
    /// the warm-up (Linux; elsewhere the peak includes the warm-up).</summary>
    public bool PeakWorkingSetMeasuredOnly { get; init; }

    /// <summary>The managed heap after the run and a full collection: what the process keeps, its pool's free arrays included.</summary>
    public long HeapAfterBytes { get; init; }

    /// <summary>What the strategy's pool held in free arrays at the end, when it is a <see cref="Buffers.BoundedArrayPool"/>.</summary>
    public long? PoolRetainedBytes { get; init; }

    /// <summary>Rents from a <see cref="Buffers.BoundedArrayPool"/> that found no free array and allocated one, during the measured downloads.</summary>
    public long PoolMisses { get; init; }

    /// <summary>Rents that found no free array and took back one the pool had let go of past its budget (allocating nothing).</summary>
    public long PoolReclaims { get; init; }

    /// <summary>Returns to a <see cref="Buffers.BoundedArrayPool"/> that its budget refused, during the measured downloads.</summary>
    public long PoolRefusedReturns { get; init; }

    /// <summary>Full collections in the whole process, warm-up included.</summary>
    public int FullCollections { get; init; }

    /// <summary>The large-object heap's size when the process's last full collection (warm-up included) began, or
    /// <see langword="null"/> when there was none: what piles up between two of them.</summary>
    public long? LastFullGcLargeObjectsBeforeBytes { get; init; }

    /// <summary>The large-object heap's size after that collection: what survived it.</summary>
    public long? LastFullGcLargeObjectsAfterBytes { get; init; }

    /// <summary>Bytes allocated per download.</summary>
    public double AllocatedPerDownload => (double)AllocatedBytes / Downloads;

    /// <summary>Body bytes received per second, in MiB.</summary>
    public double ThroughputMiBps => BytesReceived / 1024.0 / 1024.0 / (ElapsedMs / 1000.0);
}
