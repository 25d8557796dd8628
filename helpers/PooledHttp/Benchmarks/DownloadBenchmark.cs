using PooledHttp.Buffers;
using PooledHttp.Http;

namespace PooledHttp.Benchmarks;

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

    /// <summary>
    /// The series' naive download, S0's <c>Client_Send_GetByteArrayAsync</c>: <c>SendAsync</c> with the
    /// default <c>ResponseContentRead</c>, which buffers the whole body inside the content, then
    /// <c>ReadAsByteArrayAsync</c>, which copies it into the array it returns.
    /// </summary>
    protected async Task<int> SendThenReadAsByteArrayAsync(Uri url)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, url);
        using HttpResponseMessage response = await Client.SendAsync(request).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        return (await response.Content.ReadAsByteArrayAsync().ConfigureAwait(false)).Length;
    }

    /// <summary>The helpers' pooled read: the body lands in a rented array that goes back on dispose.</summary>
    protected async Task<int> PooledReadAsync(Uri url)
    {
        using PooledBuffer body = await Client.GetPooledAsync(url).ConfigureAwait(false);
        return body.Length;
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
