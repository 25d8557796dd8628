using System.Diagnostics;

namespace PooledHttp.Workshop.Notebooks;

/// <summary>Runs the <c>dotnet</c> command line and collects what it printed.</summary>
internal static class DotnetCli
{
    /// <summary>Runs <c>dotnet <paramref name="arguments"/></c> to the end.</summary>
    /// <exception cref="InvalidOperationException">The process could not be started.</exception>
    public static Task<(int ExitCode, string Output, string Error)> RunAsync(string arguments)
        => RunAsync(new ProcessStartInfo("dotnet", arguments));

    /// <summary>Runs <paramref name="dotnet"/> (a path to a dotnet executable) with <paramref name="arguments"/>, each passed as one argument.</summary>
    public static Task<(int ExitCode, string Output, string Error)> RunAsync(string dotnet, IEnumerable<string> arguments)
        => RunAsync(dotnet, arguments, Timeout.InfiniteTimeSpan);

    /// <summary>
    /// As <see cref="RunAsync(string, IEnumerable{string})"/>, with <paramref name="environment"/> added to
    /// the child's, and the child (with its own children) stopped after <paramref name="timeout"/>.
    /// </summary>
    /// <exception cref="TimeoutException">The process ran longer than <paramref name="timeout"/>; the message holds what it printed.</exception>
    public static Task<(int ExitCode, string Output, string Error)> RunAsync(string dotnet, IEnumerable<string> arguments, TimeSpan timeout, IReadOnlyDictionary<string, string>? environment = null)
    {
        var start = new ProcessStartInfo(dotnet);
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        foreach ((string name, string value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        return RunAsync(start, timeout);
    }

    private static async Task<(int ExitCode, string Output, string Error)> RunAsync(ProcessStartInfo start, TimeSpan? timeout = null)
    {
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        start.UseShellExecute = false;
        using Process process = Process.Start(start) ?? throw new InvalidOperationException("Could not start dotnet.");
        // Read both streams while waiting: a full pipe would otherwise stop the child.
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> error = process.StandardError.ReadToEndAsync();
        using var deadline = new CancellationTokenSource(timeout ?? Timeout.InfiniteTimeSpan);
        try
        {
            await process.WaitForExitAsync(deadline.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (deadline.IsCancellationRequested)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync().ConfigureAwait(false);
            throw new TimeoutException($"{start.FileName} ran longer than {timeout!.Value.TotalSeconds:0} s and was stopped. It printed:{Environment.NewLine}{await output.ConfigureAwait(false)}{await error.ConfigureAwait(false)}");
        }

        return (process.ExitCode, await output.ConfigureAwait(false), await error.ConfigureAwait(false));
    }
}
