using PooledHttp.Buffers;
using PooledHttp.Http;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 09's typed client, as a service registers it with <c>services.AddHttpClient&lt;CatalogClient&gt;()</c>:
/// the factory hands each new instance an <see cref="HttpClient"/> over a pooled, recycled handler, so the
/// client is cheap to create per request and the connections outlive it.
/// </summary>
/// <param name="http">The client the factory made for this instance.</param>
public sealed class CatalogClient(HttpClient http)
{
    /// <summary>The body read pooled: the bytes sit in a rented array until the lease is disposed.</summary>
    /// <returns>The body's length.</returns>
    public async Task<int> DownloadAsync(Uri url, CancellationToken cancellationToken = default)
    {
        using PooledBuffer body = await http.GetPooledAsync(url, cancellationToken: cancellationToken).ConfigureAwait(false);
        return body.Length;
    }

    /// <summary>The same body as most services read it: <c>GetByteArrayAsync</c>, a new array of the body's size.</summary>
    /// <returns>The body's length.</returns>
    public async Task<int> DownloadArrayAsync(Uri url, CancellationToken cancellationToken = default)
    {
        byte[] body = await http.GetByteArrayAsync(url, cancellationToken).ConfigureAwait(false);
        return body.Length;
    }
}
