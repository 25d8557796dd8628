using PooledHttp.Buffers;
using PooledHttp.Http;

namespace PooledHttp.Benchmarks;

/// <summary>
/// The two downloads the series keeps coming back to, in one place for the benchmarks and for
/// <c>tools/LoadProbe</c>, so every chapter measures the same code.
/// </summary>
public static class Downloads
{
    /// <summary>
    /// The naive download, S0's <c>Client_Send_GetByteArrayAsync</c>: <c>SendAsync</c> with the default
    /// <c>ResponseContentRead</c>, which buffers the whole body inside the content, then
    /// <c>ReadAsByteArrayAsync</c>, which copies it into the array it returns.
    /// </summary>
    /// <returns>The body's length.</returns>
    public static async Task<int> SendThenReadAsByteArrayAsync(HttpClient client, Uri url)
    {
        ArgumentNullException.ThrowIfNull(client);
        using var request = new HttpRequestMessage(HttpMethod.Get, url);
        using HttpResponseMessage response = await client.SendAsync(request).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        return (await response.Content.ReadAsByteArrayAsync().ConfigureAwait(false)).Length;
    }

    /// <summary>The helpers' pooled read: the body lands in a rented array that goes back on dispose.</summary>
    /// <returns>The body's length.</returns>
    public static async Task<int> PooledReadAsync(HttpClient client, Uri url)
    {
        using PooledBuffer body = await client.GetPooledAsync(url).ConfigureAwait(false);
        return body.Length;
    }
}
