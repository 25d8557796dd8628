namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// What every download benchmark shares: one <see cref="System.Net.Http.HttpClient"/> for the whole run,
/// as real code would have, created in the benchmark process and disposed when BenchmarkDotNet is done.
/// </summary>
/// <remarks>Benchmark classes must be public and not sealed: BenchmarkDotNet generates a class that derives from them.</remarks>
public abstract class DownloadBenchmark : IDisposable
{
    /// <summary>The client every strategy uses.</summary>
    protected HttpClient Client { get; private set; } = null!;

    /// <summary>Creates the client; derived classes build their addresses in <see cref="Prepare"/>.</summary>
    [BenchmarkDotNet.Attributes.GlobalSetup]
    public void Setup()
    {
        Client = new HttpClient();
        Prepare();
    }

    /// <summary>Disposes the client.</summary>
    [BenchmarkDotNet.Attributes.GlobalCleanup]
    public void Dispose()
    {
        Dispose(disposing: true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Computes the addresses the strategies download from, once parameters are set.</summary>
    protected abstract void Prepare();

    /// <summary>Disposes the client.</summary>
    protected virtual void Dispose(bool disposing)
    {
        if (disposing)
        {
            Client?.Dispose();
        }
    }
}
