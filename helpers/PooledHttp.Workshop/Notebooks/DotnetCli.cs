using System.Diagnostics;

namespace PooledHttp.Notebooks;

/// <summary>Runs the <c>dotnet</c> command line and collects what it printed.</summary>
internal static class DotnetCli
{
    /// <summary>Runs <c>dotnet <paramref name="arguments"/></c> to the end.</summary>
    /// <exception cref="InvalidOperationException">The process could not be started.</exception>
    public static Task<(int ExitCode, string Output, string Error)> RunAsync(string arguments)
        => RunAsync(new ProcessStartInfo("dotnet", arguments));

    /// <summary>Runs <paramref name="dotnet"/> (a path to a dotnet executable) with <paramref name="arguments"/>, each passed as one argument.</summary>
    public static Task<(int ExitCode, string Output, string Error)> RunAsync(string dotnet, IEnumerable<string> arguments)
    {
        var start = new ProcessStartInfo(dotnet);
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        return RunAsync(start);
    }

    private static async Task<(int ExitCode, string Output, string Error)> RunAsync(ProcessStartInfo start)
    {
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        start.UseShellExecute = false;
        using Process process = Process.Start(start) ?? throw new InvalidOperationException("Could not start dotnet.");
        // Read both streams while waiting: a full pipe would otherwise stop the child.
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> error = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync().ConfigureAwait(false);
        return (process.ExitCode, await output.ConfigureAwait(false), await error.ConfigureAwait(false));
    }
}
