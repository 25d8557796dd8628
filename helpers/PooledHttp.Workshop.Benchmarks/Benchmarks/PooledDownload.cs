using System.Buffers;
using BenchmarkDotNet.Attributes;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 04, after S0: the whole ladder at S0's size, 1 MiB sent in one write without a
/// Content-Length, from the naive download to the helpers' pooled read. Method names are S0's, so
/// the published figures line up.
/// </summary>
public class PooledDownload : DownloadBenchmark
{
    /// <summary>S0's loop buffer.</summary>
    public const int ChunkedReadBufferSize = 4096;

    /// <summary>What S0's copy starts with when no length is given.</summary>
    public const int UnknownLengthInitialCapacity = 256;

    private Uri _chunked = null!;
    private Uri _withLength = null!;

    /// <summary>The body size in bytes: S0's 1 MiB.</summary>
    [Params(1024 * 1024)]
    public int Size { get; set; }

    /// <summary><c>SendAsync</c> (body buffered) then <c>ReadAsByteArrayAsync</c> (copied out).</summary>
    [Benchmark(Baseline = true)]
    public Task<int> Client_Send_GetByteArrayAsync() => Downloads.SendThenReadAsByteArrayAsync(Client, _chunked);

    /// <summary><c>GetByteArrayAsync</c>: one array for the body (pooled growth inside when the length is unknown).</summary>
    [Benchmark]
    public Task<int> GetByteArrayAsync() => Downloads.GetByteArrayAsync(Client, _chunked);

    /// <summary><c>ResponseHeadersRead</c>, then a loop of reads into one small array: streams, keeps nothing.</summary>
    [Benchmark]
    public Task<long> SendAsync_ResponseHeadersRead_ChunkedRead() => ReadInChunksAsync(Client, _chunked);

    /// <summary>The same loop through the older <c>ReadAsync(byte[], int, int)</c> overload, which returns a <c>Task&lt;int&gt;</c>.</summary>
    [Benchmark]
    public Task<long> SendAsync_ResponseHeadersRead_ChunkedRead_ArrayOverload() => ReadInChunksArrayOverloadAsync(Client, _chunked);

    /// <summary>
    /// <c>ResponseHeadersRead</c>, then <c>CopyToAsync</c> into a stream over pooled arrays, as S0 did,
    /// except that the response is disposed here (S0's was not: see the notebook).
    /// </summary>
    [Benchmark]
    public Task<int> SendAsync_ArrayPoolWriteStream() => CopyToPooledStreamAsync(Client, _chunked);

    /// <summary>
    /// S0's known-length read, faithfully: rent the Content-Length from the shared pool and call
    /// <c>ReadAsync</c> once. It needs a Content-Length, so it alone downloads the same body with one.
    /// One read may return part of the body: the notebook shows when.
    /// </summary>
    [Benchmark]
    public Task<int> KnownLength_UseArrayPool() => ReadOnceAsync(Client, _withLength);

    /// <summary>The helpers' pooled read: any framing, the whole body or an exception, one rented array per body.</summary>
    [Benchmark]
    public Task<int> PooledRead() => Downloads.PooledReadAsync(Client, _chunked);

    /// <summary>Streams the body through one 4 KiB array and keeps nothing: what reading costs without holding the body.</summary>
    /// <returns>The body's length.</returns>
    public static async Task<long> ReadInChunksAsync(HttpClient client, Uri url)
    {
        ArgumentNullException.ThrowIfNull(client);
        using var request = new HttpRequestMessage(HttpMethod.Get, url);
        using HttpResponseMessage response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        Stream stream = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
        byte[] buffer = new byte[ChunkedReadBufferSize];
        long total = 0;
        int read;
        while ((read = await stream.ReadAsync(buffer).ConfigureAwait(false)) > 0)
        {
            total += read;
        }

        return total;
    }

    /// <summary>
    /// <see cref="ReadInChunksAsync"/> through <c>ReadAsync(byte[], int, int)</c>: the overload older code calls. A
    /// read that completes at once still hands back a <c>Task&lt;int&gt;</c>, where the <c>Memory&lt;byte&gt;</c>
    /// overload's <c>ValueTask&lt;int&gt;</c> needs no object.
    /// </summary>
    /// <returns>The body's length.</returns>
    public static async Task<long> ReadInChunksArrayOverloadAsync(HttpClient client, Uri url)
    {
        ArgumentNullException.ThrowIfNull(client);
        using var request = new HttpRequestMessage(HttpMethod.Get, url);
        using HttpResponseMessage response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        Stream stream = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
        byte[] buffer = new byte[ChunkedReadBufferSize];
        long total = 0;
        int read;
#pragma warning disable CA1835 // the array overload is the point: it is what this strategy measures
        while ((read = await stream.ReadAsync(buffer, 0, buffer.Length).ConfigureAwait(false)) > 0)
#pragma warning restore CA1835
        {
            total += read;
        }

        return total;
    }

    /// <summary>S0's write-stream download: the body copied into a stream over arrays rented from the shared pool, doubling as it grows.</summary>
    /// <returns>The body's length.</returns>
    public static async Task<int> CopyToPooledStreamAsync(HttpClient client, Uri url)
    {
        ArgumentNullException.ThrowIfNull(client);
        using var request = new HttpRequestMessage(HttpMethod.Get, url);
        using HttpResponseMessage response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        using var body = new ArrayPoolWriteStream((int?)response.Content.Headers.ContentLength ?? UnknownLengthInitialCapacity);
        await response.Content.CopyToAsync(body).ConfigureAwait(false);
        return body.GetBuffer().Count;
    }

    /// <summary>S0's known-length read: rent Content-Length bytes from the shared pool, call <c>ReadAsync</c> once, trust what it returns.</summary>
    /// <returns>What the one read returned, which may be less than the body.</returns>
    public static async Task<int> ReadOnceAsync(HttpClient client, Uri url)
    {
        ArgumentNullException.ThrowIfNull(client);
        using var request = new HttpRequestMessage(HttpMethod.Get, url);
        using HttpResponseMessage response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        int length = (int)(response.Content.Headers.ContentLength ?? throw new InvalidOperationException("No Content-Length."));
        byte[] buffer = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            Stream stream = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
            return await stream.ReadAsync(buffer.AsMemory(0, length)).ConfigureAwait(false);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <inheritdoc />
    protected override void Prepare()
    {
        _chunked = BenchmarkServer.Bytes(Size);
        _withLength = BenchmarkServer.Bytes(Size, contentLength: true);
    }
}
