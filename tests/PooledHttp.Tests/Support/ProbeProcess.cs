using System.Diagnostics;
using System.Globalization;

namespace PooledHttp.Tests.Support;

/// <summary>Runs PooledHttp.AllocationProbe in a child process and reads what it measured.</summary>
internal static class ProbeProcess
{
    public static async Task<(long BytesPerOperation, int BodyLength)> MeasureAsync(string strategy, Uri url, int iterations)
    {
        string probe = Path.Combine(AppContext.BaseDirectory, "PooledHttp.AllocationProbe.dll");
        Assert.True(File.Exists(probe), $"the probe was not built beside the tests: {probe}");
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string arg in new[] { probe, strategy, url.ToString(), iterations.ToString(CultureInfo.InvariantCulture) })
        {
            start.ArgumentList.Add(arg);
        }

        using Process process = Process.Start(start) ?? throw new InvalidOperationException("could not start the probe");
        Task<string> stdout = process.StandardOutput.ReadToEndAsync();
        Task<string> stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(3));
        await process.WaitForExitAsync(timeout.Token);
        string output = (await stdout).Trim();
        Assert.True(process.ExitCode == 0, $"probe failed ({process.ExitCode}): {output} {await stderr}");
        string[] parts = output.Split(' ');
        return (long.Parse(parts[0], CultureInfo.InvariantCulture), int.Parse(parts[1], CultureInfo.InvariantCulture));
    }
}
