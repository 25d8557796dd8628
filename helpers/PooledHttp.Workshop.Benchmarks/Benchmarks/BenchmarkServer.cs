using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// How a benchmark, running in BenchmarkDotNet's child process, finds the server that runs in the
/// notebook's process: through an environment variable that <c>Measure.Run</c> sets on the job.
/// </summary>
public static class BenchmarkServer
{
    /// <summary>The server's base address.</summary>
    /// <exception cref="InvalidOperationException">The variable is not set: the benchmark was started without <c>Measure.Run</c>.</exception>
    public static Uri Address => Environment.GetEnvironmentVariable(ServerVariables.Address) is { Length: > 0 } value
        ? new Uri(value)
        : throw new InvalidOperationException($"{ServerVariables.Address} is not set. Run benchmarks through Measure.Run, which starts them against the notebook's server.");

    /// <summary>Another server's setting, handed over by <c>Measure.Run</c> like the address (chapter 09's Kestrel server).</summary>
    /// <exception cref="InvalidOperationException">The variable is not set.</exception>
    public static string Variable(string name) => Environment.GetEnvironmentVariable(name) is { Length: > 0 } value
        ? value
        : throw new InvalidOperationException($"{name} is not set. Run this benchmark through Measure.Run with the server's EnvironmentVariables.");

    /// <summary>The <c>/bytes</c> address for a body of <paramref name="size"/> bytes.</summary>
    public static Uri Bytes(int size, bool contentLength = false, int writes = 1)
        => new(Address, Server.ServerPaths.Bytes(size, contentLength, writes));

    /// <summary>The <c>/bytes</c> address for a body of <paramref name="size"/> bytes spread over time by <paramref name="pace"/>.</summary>
    public static Uri PacedBytes(int size, bool contentLength, Server.Pace pace)
        => new(Address, Server.ServerPaths.PacedBytes(size, contentLength, pace));
}
