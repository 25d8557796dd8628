using System.Diagnostics;

namespace PooledHttp.Tests.Support;

/// <summary>Runs a program in a process of its own and collects what it printed.</summary>
internal static class ChildProcess
{
    /// <summary>Runs <paramref name="program"/> with <paramref name="arguments"/> to its end, or fails the test after <paramref name="timeout"/>.</summary>
    public static async Task<(int ExitCode, string Output, string Error)> RunAsync(string program, IEnumerable<string> arguments, TimeSpan timeout, string? workingDirectory = null)
    {
        var start = new ProcessStartInfo(program)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory ?? Environment.CurrentDirectory,
        };
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using Process process = Process.Start(start) ?? throw new InvalidOperationException($"could not start {program}");
        // Read both streams while waiting: a full pipe would otherwise stop the child.
        Task<string> stdout = process.StandardOutput.ReadToEndAsync();
        Task<string> stderr = process.StandardError.ReadToEndAsync();
        using var cancel = new CancellationTokenSource(timeout);
        await process.WaitForExitAsync(cancel.Token);
        return (process.ExitCode, await stdout, await stderr);
    }

    /// <summary>Runs a .NET program built beside the tests.</summary>
    public static Task<(int ExitCode, string Output, string Error)> RunDotnetAsync(string dll, IEnumerable<string> arguments, TimeSpan timeout, string? workingDirectory = null)
    {
        string path = Path.Combine(AppContext.BaseDirectory, dll);
        Assert.True(File.Exists(path), $"{dll} was not built beside the tests: {path}");
        return RunAsync("dotnet", [path, .. arguments], timeout, workingDirectory);
    }
}
