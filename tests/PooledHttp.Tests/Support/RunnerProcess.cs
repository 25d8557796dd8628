using System.Diagnostics;

namespace PooledHttp.Tests.Support;

/// <summary>Runs the headless notebook runner in a child process, as a user would from the command line.</summary>
internal static class RunnerProcess
{
    public static async Task<(int ExitCode, string Output, string Error)> RunAsync(params string[] arguments)
    {
        string runner = Path.Combine(AppContext.BaseDirectory, "NotebookRunner.dll");
        Assert.True(File.Exists(runner), $"the runner was not built beside the tests: {runner}");
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = Repository.RepositoryTests.FindRoot(),
        };
        start.ArgumentList.Add(runner);
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using Process process = Process.Start(start) ?? throw new InvalidOperationException("could not start the runner");
        Task<string> stdout = process.StandardOutput.ReadToEndAsync();
        Task<string> stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(20));
        await process.WaitForExitAsync(timeout.Token);
        return (process.ExitCode, await stdout, await stderr);
    }
}
