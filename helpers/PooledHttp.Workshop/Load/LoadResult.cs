namespace PooledHttp.Load;

/// <summary>What one load run cost the process that ran it (chapter 07's <c>tools/LoadProbe</c>).</summary>
/// <param name="Strategy">"naive" (SendAsync + ReadAsByteArrayAsync) or "pooled" (GetPooledAsync).</param>
/// <param name="Concurrency">Downloads in flight at once.</param>
/// <param name="Downloads">Downloads measured, after the warm-up.</param>
/// <param name="BytesReceived">Body bytes received, to check every download was whole.</param>
/// <param name="AllocatedBytes">Bytes the process allocated during the measured downloads.</param>
/// <param name="Gen0">Gen0 collections during them.</param>
/// <param name="Gen1">Gen1 collections during them.</param>
/// <param name="Gen2">Gen2 (full) collections during them.</param>
/// <param name="GcPauseMs">Total time the GC paused the process during them.</param>
/// <param name="ElapsedMs">Wall-clock time of the measured downloads.</param>
/// <param name="PeakWorkingSetBytes">The process's peak working set, warm-up included.</param>
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
    /// <summary>Body bytes received per second, in MiB.</summary>
    public double ThroughputMiBps => BytesReceived / 1024.0 / 1024.0 / (ElapsedMs / 1000.0);

    /// <summary>GC pause as a share of the run's wall-clock time, in percent.</summary>
    public double PausePercent => 100.0 * GcPauseMs / ElapsedMs;
}
