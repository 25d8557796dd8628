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
    private const int ChunkedReadBufferSize = 4096; // S0's loop buffer
    private const int UnknownLengthInitialCapacity = 256; // what S0's copy starts with when no length is given
    private Uri _chunked = null!;
    private Uri _withLength = null!;

    /// <summary>The body size in bytes: S0's 1 MiB.</summary>
    [Params(1024 * 1024)]
    public int Size { get; set; }

    /// <summary><c>SendAsync</c> (body buffered) then <c>ReadAsByteArrayAsync</c> (copied out).</summary>
    [Benchmark(Baseline = true)]
    public Task<int> Client_Send_GetByteArrayAsync() => SendThenReadAsByteArrayAsync(_chunked);

    /// <summary><c>GetByteArrayAsync</c>: one array for the body (pooled growth inside when the length is unknown).</summary>
    [Benchmark]
    public async Task<int> GetByteArrayAsync() => (await Client.GetByteArrayAsync(_chunked).ConfigureAwait(false)).Length;

    /// <summary><c>ResponseHeadersRead</c>, then a loop of reads into one small array: streams, keeps nothing.</summary>
    [Benchmark]
    public async Task<long> SendAsync_ResponseHeadersRead_ChunkedRead()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, _chunked);
        using HttpResponseMessage response = await Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
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
    /// <c>ResponseHeadersRead</c>, then <c>CopyToAsync</c> into a stream over pooled arrays, as S0 did,
    /// except that the response is disposed here (S0's was not: see the notebook).
    /// </summary>
    [Benchmark]
    public async Task<int> SendAsync_ArrayPoolWriteStream()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, _chunked);
        using HttpResponseMessage response = await Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        using var body = new ArrayPoolWriteStream((int?)response.Content.Headers.ContentLength ?? UnknownLengthInitialCapacity);
        await response.Content.CopyToAsync(body).ConfigureAwait(false);
        return body.GetBuffer().Count;
    }

    /// <summary>
    /// S0's known-length read, faithfully: rent the Content-Length from the shared pool and call
    /// <c>ReadAsync</c> once. It needs a Content-Length, so it alone downloads the same body with one.
    /// One read may return part of the body: the notebook shows when.
    /// </summary>
    [Benchmark]
    public async Task<int> KnownLength_UseArrayPool()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, _withLength);
        using HttpResponseMessage response = await Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
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

    /// <summary>The helpers' pooled read: any framing, the whole body or an exception, one rented array per body.</summary>
    [Benchmark]
    public Task<int> PooledRead() => PooledReadAsync(_chunked);

    /// <inheritdoc />
    protected override void Prepare()
    {
        _chunked = BenchmarkServer.Bytes(Size);
        _withLength = BenchmarkServer.Bytes(Size, contentLength: true);
    }
}
