using System.Diagnostics;

namespace PooledHttp.Tests.Support;

/// <summary>Runs a .NET program built beside the tests in a process of its own and collects what it printed.</summary>
internal static class ChildProcess
{
    public static async Task<(int ExitCode, string Output, string Error)> RunDotnetAsync(string dll, IEnumerable<string> arguments, TimeSpan timeout, string? workingDirectory = null)
    {
        string path = Path.Combine(AppContext.BaseDirectory, dll);
        Assert.True(File.Exists(path), $"{dll} was not built beside the tests: {path}");
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory ?? Environment.CurrentDirectory,
        };
        start.ArgumentList.Add(path);
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using Process process = Process.Start(start) ?? throw new InvalidOperationException($"could not start {dll}");
        Task<string> stdout = process.StandardOutput.ReadToEndAsync();
        Task<string> stderr = process.StandardError.ReadToEndAsync();
        using var cancel = new CancellationTokenSource(timeout);
        await process.WaitForExitAsync(cancel.Token);
        return (process.ExitCode, await stdout, await stderr);
    }
}
