using System.Buffers;
using PooledHttp.Buffers;
using PooledHttp.Http;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// The two downloads the series keeps coming back to, in one place for every benchmark that measures them,
/// so every chapter measures the same code (the library tests' allocation probe measures them too).
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
        byte[] body = await response.Content.ReadAsByteArrayAsync().ConfigureAwait(false);
        return body.Length;
    }

    /// <summary><c>GetByteArrayAsync</c>, the runtime's one-liner: the body in a new array of its size.</summary>
    /// <returns>The body's length.</returns>
    public static async Task<int> GetByteArrayAsync(HttpClient client, Uri url)
    {
        ArgumentNullException.ThrowIfNull(client);
        byte[] body = await client.GetByteArrayAsync(url).ConfigureAwait(false);
        return body.Length;
    }

    /// <summary>
    /// The floor: <c>ResponseHeadersRead</c>, then the body streamed into <paramref name="buffer"/>, allocated
    /// once by the caller for many downloads. No pool, no copy: what HttpClient itself costs per request.
    /// </summary>
    /// <returns>The body's length.</returns>
    public static async Task<int> FloorAsync(HttpClient client, Uri url, byte[] buffer)
    {
        ArgumentNullException.ThrowIfNull(client);
        ArgumentNullException.ThrowIfNull(buffer);
        using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        using Stream body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
        int filled = 0;
        int read;
        while ((read = await body.ReadAsync(buffer.AsMemory(filled, Math.Min(FloorReadSize, buffer.Length - filled))).ConfigureAwait(false)) > 0)
        {
            filled += read;
        }

        return filled;
    }

    /// <summary>What the floor asks for per read: the same as the pooled read, so that the two differ only in
    /// what the pooled read adds (the read size alone moves the runtime's allocations; see <see cref="PooledBodyReader.ReadSize"/>).</summary>
    private const int FloorReadSize = PooledBodyReader.ReadSize;

    /// <summary>Starts <paramref name="concurrency"/> downloads at once and waits for all: chapter 07's batch.</summary>
    /// <returns>The bodies' total length.</returns>
    public static async Task<long> BatchAsync(int concurrency, Func<Task<int>> download)
    {
        ArgumentNullException.ThrowIfNull(download);
        var batch = new Task<int>[concurrency];
        for (int i = 0; i < batch.Length; i++)
        {
            batch[i] = download();
        }

        long total = 0;
        foreach (int length in await Task.WhenAll(batch).ConfigureAwait(false))
        {
            total += length;
        }

        return total;
    }

    /// <summary>The helpers' pooled read: the body lands in a rented array that goes back on dispose.</summary>
    /// <returns>The body's length.</returns>
    public static async Task<int> PooledReadAsync(HttpClient client, Uri url, ArrayPool<byte>? pool = null)
    {
        using PooledBuffer body = await client.GetPooledAsync(url, pool: pool).ConfigureAwait(false);
        return body.Length;
    }
}
