namespace PooledHttp.Workshop.Measuring;

/// <summary>A benchmark run that did not measure what it was asked to. Never shown as an empty table.</summary>
public sealed class BenchmarkFailedException(string message) : Exception(message);
