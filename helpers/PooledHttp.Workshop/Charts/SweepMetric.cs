namespace PooledHttp.Workshop.Charts;

/// <summary>What a size-sweep chart puts on its vertical axis.</summary>
public enum SweepMetric
{
    /// <summary>Bytes allocated per operation.</summary>
    Allocated,

    /// <summary>Mean time per operation. Only compare lines from one run.</summary>
    Time,
}
