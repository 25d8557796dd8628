using System.Globalization;

namespace PooledHttp.Tests.Support;

/// <summary>Runs PooledHttp.AllocationProbe in a child process and reads what it measured.</summary>
internal static class ProbeProcess
{
    public static async Task<(long BytesPerOperation, int BodyLength)> MeasureAsync(string strategy, Uri url, int iterations)
    {
        (int exit, string output, string error) = await ChildProcess.RunDotnetAsync(
            "PooledHttp.AllocationProbe.dll", [strategy, url.ToString(), iterations.ToString(CultureInfo.InvariantCulture)], TimeSpan.FromMinutes(3));
        Assert.True(exit == 0, $"probe failed ({exit}): {output} {error}");
        string[] parts = output.Trim().Split(' ');
        return (long.Parse(parts[0], CultureInfo.InvariantCulture), int.Parse(parts[1], CultureInfo.InvariantCulture));
    }
}
