using System.Net;
using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Testing;
using PooledHttp.Tests.Support;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Tests.Http;

/// <summary>
/// A gzip-compressed response read through a client that decompresses (<see cref="SocketsHttpHandler.AutomaticDecompression"/>):
/// the handler drops the Content-Length, so the pooled read sees a body of unknown length. Compared with the
/// runtime's own read of the same response: same bytes, and the same refusal of a body that decompresses past the limit.
/// </summary>
public sealed class DecompressionTests(ServerFixture fixture) : IClassFixture<ServerFixture>, IDisposable
{
    private readonly HttpClient _decompressing = new(new SocketsHttpHandler { AutomaticDecompression = DecompressionMethods.GZip });

    public static TheoryData<int, bool> Sizes() => new()
    {
        { 0, false }, { 1, true }, { 100_000, false }, { 100_000, true }, { 1024 * 1024 + 1, false }, { 4 * 1024 * 1024, true },
    };

    [Theory]
    [MemberData(nameof(Sizes))]
    public async Task The_pooled_read_of_a_decompressed_body_is_the_runtimes_byte_for_byte(int size, bool compressedLength)
    {
        Uri url = fixture.Server.GzipUrl(size, compressedLength);
        byte[] runtime = await _decompressing.GetByteArrayAsync(url);
        var pool = new TrackingArrayPool();
        using (PooledBuffer pooled = await _decompressing.GetPooledAsync(url, pool: pool))
        {
            Assert.Equal(size, runtime.Length);
            Assert.Equal(-1, Payload.FirstMismatch(runtime));
            Assert.True(pooled.Span.SequenceEqual(runtime), $"{size} B: the pooled read differs from the runtime's");
        }

        pool.AssertBalanced();
    }

    [Fact]
    public async Task The_wire_is_compressed_and_the_handler_hides_the_compressed_length()
    {
        using HttpResponseMessage raw = await fixture.Client.GetAsync(fixture.Server.GzipUrl(1024 * 1024, contentLength: true));
        Assert.Equal("gzip", Assert.Single(raw.Content.Headers.ContentEncoding));
        Assert.InRange(raw.Content.Headers.ContentLength!.Value, 1, 64 * 1024); // the pattern compresses well

        using HttpResponseMessage decompressed = await _decompressing.GetAsync(fixture.Server.GzipUrl(1024 * 1024, contentLength: true), HttpCompletionOption.ResponseHeadersRead);
        Assert.Null(decompressed.Content.Headers.ContentLength); // so the pooled read cannot rent by length
        Assert.Empty(decompressed.Content.Headers.ContentEncoding);
    }

    [Fact]
    public async Task A_body_that_decompresses_past_the_limit_is_refused_by_both_and_every_array_comes_back()
    {
        // A small compressed body that inflates to 4 MiB: the limit must apply to what is decompressed.
        Uri url = fixture.Server.GzipUrl(4 * 1024 * 1024, contentLength: true);
        using var limited = new HttpClient(new SocketsHttpHandler { AutomaticDecompression = DecompressionMethods.GZip }) { MaxResponseContentBufferSize = 1024 * 1024 };
        await Assert.ThrowsAsync<HttpRequestException>(() => limited.GetByteArrayAsync(url));

        var pool = new TrackingArrayPool();
        await Assert.ThrowsAsync<PayloadTooLargeException>(async () =>
        {
            using PooledBuffer body = await _decompressing.GetPooledAsync(url, maxBytes: 1024 * 1024, pool: pool);
        });
        pool.AssertBalanced();
    }

    public void Dispose() => _decompressing.Dispose();
}
