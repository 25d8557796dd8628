using System.Globalization;

namespace PooledHttp.Tests.Support;

/// <summary>Runs PooledHttp.AllocationProbe in a child process and reads what it measured.</summary>
internal static class ProbeProcess
{
    /// <summary>What one probe run measured.</summary>
    /// <param name="BytesPerOperation">Allocated per operation (one download of each url, each <c>parallel</c> times at once).</param>
    /// <param name="BodyLength">Body bytes per operation.</param>
    /// <param name="HeapAfter">The managed heap after the run and a full collection, the pool's arrays included.</param>
    public sealed record Measurement(long BytesPerOperation, long BodyLength, long HeapAfter);

    public static async Task<(long BytesPerOperation, int BodyLength)> MeasureAsync(string strategy, Uri url, int iterations)
    {
        Measurement m = await MeasureAsync(strategy, [url], iterations, warmups: Math.Max(100, iterations), parallel: 1);
        return (m.BytesPerOperation, checked((int)m.BodyLength));
    }

    /// <param name="environment">Variables added to the probe's environment: the runtime's process-wide settings, read once per process.</param>
    public static async Task<Measurement> MeasureAsync(string strategy, IEnumerable<Uri> urls, int iterations, int warmups, int parallel, IReadOnlyDictionary<string, string>? environment = null)
    {
        (int exit, string output, string error) = await ChildProcess.RunAsync(
            "dotnet",
            [Path.Combine(AppContext.BaseDirectory, "PooledHttp.AllocationProbe.dll"), strategy, string.Join(',', urls), Invariant(iterations), Invariant(warmups), Invariant(parallel)],
            TimeSpan.FromMinutes(3),
            environment);
        Assert.True(exit == 0, $"probe failed ({exit}): {output} {error}");
        long[] parts = [.. output.Trim().Split(' ').Select(p => long.Parse(p, CultureInfo.InvariantCulture))];
        return new Measurement(parts[0], parts[1], parts[2]);
    }

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
