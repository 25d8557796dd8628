namespace PooledHttp.Tests.Support;

/// <summary>Runs the headless notebook runner in a child process from the repository root, as a user would.</summary>
internal static class RunnerProcess
{
    public static Task<(int ExitCode, string Output, string Error)> RunAsync(params string[] arguments)
        => ChildProcess.RunDotnetAsync("NotebookRunner.dll", arguments, TimeSpan.FromMinutes(20), Repository.RepositoryTests.FindRoot());
}
