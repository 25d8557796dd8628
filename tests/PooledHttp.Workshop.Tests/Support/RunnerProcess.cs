namespace PooledHttp.Tests.Support;

/// <summary>Runs the headless notebook runner in a child process from the repository root, as a user would.</summary>
internal static class RunnerProcess
{
    /// <summary>
    /// The runner from its own build folder, not the copy beside the tests: there its FSharp.Core is the kernel's
    /// line (10.0), and beside the tests the kit's 10.1 replaces it (see the kernel fidelity tests).
    /// </summary>
    private static readonly string Runner = Path.Combine(
        Repository.RepositoryTests.FindRoot(), "tools", "NotebookRunner", "bin",
        Path.GetFileName(Path.GetDirectoryName(Path.TrimEndingDirectorySeparator(AppContext.BaseDirectory)))!, // the configuration the tests were built in
        "net10.0", "NotebookRunner.dll");

    public static Task<ChildResult> RunAsync(params string[] arguments)
        => ChildProcess.RunAsync("dotnet", [Runner, .. arguments], TimeSpan.FromMinutes(20), workingDirectory: Repository.RepositoryTests.FindRoot());
}
