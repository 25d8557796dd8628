using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// How a benchmark, running in BenchmarkDotNet's child process, finds the server that runs in the
/// notebook's process: through the <see cref="RunContext"/> that <c>Measure.Run</c> sets on the job.
/// </summary>
public static class BenchmarkServer
{
    /// <summary>The server's base address.</summary>
    /// <exception cref="InvalidOperationException">The context has none: the benchmark was started without <c>Measure.Run</c>.</exception>
    public static Uri Address => RunContext.Require(RunContext.Current.Server, "The local server's address", "Measure.Run, which starts benchmarks against the notebook's server");

    /// <summary>The <c>/bytes</c> address for a body of <paramref name="size"/> bytes.</summary>
    public static Uri Bytes(int size, bool contentLength = false, int writes = 1)
        => new(Address, Server.ServerPaths.Bytes(size, contentLength, writes));

    /// <summary>The <c>/bytes</c> address for a body of <paramref name="size"/> bytes spread over time by <paramref name="pace"/>.</summary>
    public static Uri PacedBytes(int size, bool contentLength, Server.Pace pace)
        => new(Address, Server.ServerPaths.PacedBytes(size, contentLength, pace));
}
