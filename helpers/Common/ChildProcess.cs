using System.Diagnostics;
using System.Text;

namespace PooledHttp;

/// <summary>
/// The processes the workshop starts, started one way: the builds of the exercises, the load probe and
/// BenchmarkDotNet's generated projects, exercise checks, load probes, the runner's notebook processes, the
/// tests' programs (not <c>notebooks/workshop.csx</c>'s build, which runs before the kit exists, nor the
/// benchmark processes BenchmarkDotNet starts itself). Arguments are passed one by one, both streams are read
/// while it runs (a full pipe would stop the child), and after an optional deadline the child and its own
/// children are stopped. One source file, compiled into the projects that share no assembly (docs/architecture.md,
/// "shared source", lists them).
/// </summary>
internal static class ChildProcess
{
    /// <summary>How long a child that has said what was wanted (<see cref="RunAsync"/>'s <c>until</c>) gets to exit before it is stopped.</summary>
    private static readonly TimeSpan ExitGrace = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Runs <paramref name="file"/> with <paramref name="arguments"/>, each passed as one argument, with
    /// <paramref name="environment"/> added to the child's. When <paramref name="until"/> is given, each line of
    /// standard output goes to it, and the first line it accepts ends the wait: the child then gets a moment to
    /// exit and is stopped if it does not.
    /// </summary>
    /// <exception cref="TimeoutException">The child ran longer than <paramref name="timeout"/> (it was stopped); the message holds what it printed.</exception>
    /// <exception cref="InvalidOperationException">The process could not be started.</exception>
    /// <param name="file">The program.</param>
    /// <param name="arguments">Its arguments, each passed as one.</param>
    /// <param name="timeout">How long it may run; <see cref="Timeout.InfiniteTimeSpan"/> for no limit.</param>
    /// <param name="environment">Variables added to the child's environment.</param>
    /// <param name="until">Sees each line of standard output; the first it accepts ends the wait.</param>
    /// <param name="workingDirectory">The child's current directory; this process's when null.</param>
    /// <param name="echo">Also pass each line through to this process's standard output and error as it comes.</param>
    /// <param name="started">Told the child's process id once it runs (chapter 09 attaches a diagnostics client to it).</param>
    public static async Task<ChildResult> RunAsync(string file, IEnumerable<string> arguments, TimeSpan timeout, IReadOnlyDictionary<string, string>? environment = null, Func<string, bool>? until = null, string? workingDirectory = null, bool echo = false, Action<int>? started = null)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false, CreateNoWindow = true, WorkingDirectory = workingDirectory ?? Environment.CurrentDirectory };
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        foreach ((string name, string value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        var output = new StringBuilder();
        var error = new StringBuilder();
        var said = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        using var process = new Process { StartInfo = start };
        var outputDone = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var errorDone = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        process.OutputDataReceived += Collect(output, outputDone, line =>
        {
            if (echo)
            {
                Console.Out.WriteLine(line);
            }

            if (until?.Invoke(line) == true)
            {
                said.TrySetResult(line);
            }
        });
        process.ErrorDataReceived += Collect(error, errorDone, echo ? Console.Error.WriteLine : null);

        if (!process.Start())
        {
            throw new InvalidOperationException($"Could not start {file}.");
        }

        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        started?.Invoke(process.Id);
        using var deadline = new CancellationTokenSource(timeout);
        Task exited = process.WaitForExitAsync(CancellationToken.None);
        Task first = await Task.WhenAny(exited, said.Task, Task.Delay(Timeout.Infinite, deadline.Token)).ConfigureAwait(false);
        bool timedOut = first != exited && first != said.Task;
        if (timedOut || (first == said.Task && await Task.WhenAny(exited, Task.Delay(ExitGrace)).ConfigureAwait(false) != exited))
        {
            process.Kill(entireProcessTree: true);
        }

        await exited.ConfigureAwait(false);
        // The last lines can arrive after the exit is seen; a grandchild that kept the pipes open is not waited for.
        await Task.WhenAny(Task.WhenAll(outputDone.Task, errorDone.Task), Task.Delay(ExitGrace)).ConfigureAwait(false);
        string printed = Snapshot(output), complained = Snapshot(error);
        if (timedOut)
        {
            throw new TimeoutException($"{file} ran longer than {timeout.TotalSeconds:0} s and was stopped. It printed:{Environment.NewLine}{printed}{complained}".TrimEnd());
        }

        return new ChildResult(process.ExitCode, printed, complained, said.Task.IsCompleted ? said.Task.Result : null);
    }

    /// <summary>A handler that appends each line to <paramref name="text"/>, shows it to <paramref name="observe"/>, and marks <paramref name="done"/> at the end of the stream.</summary>
    private static DataReceivedEventHandler Collect(StringBuilder text, TaskCompletionSource done, Action<string>? observe) => (_, line) =>
    {
        if (line.Data is null)
        {
            done.TrySetResult();
            return;
        }

        lock (text)
        {
            text.AppendLine(line.Data);
        }

        observe?.Invoke(line.Data);
    };

    private static string Snapshot(StringBuilder text)
    {
        lock (text)
        {
            return text.ToString();
        }
    }
}

/// <summary>How a child process ended: its exit code, what it printed on each stream, and the line <c>until</c> accepted, if any.</summary>
internal sealed record ChildResult(int ExitCode, string Output, string Error, string? Said)
{
    /// <summary>The exit code and both streams, for the callers that watch for no line.</summary>
    public void Deconstruct(out int exitCode, out string output, out string error) => (exitCode, output, error) = (ExitCode, Output, Error);
}
