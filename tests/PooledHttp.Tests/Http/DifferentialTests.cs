using System.Text;
using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Http;

/// <summary>
/// A corpus of well- and ill-framed responses, each read twice from a raw socket: by the runtime
/// (<c>SendAsync</c> + <c>ReadAsByteArrayAsync</c>) and by the pooled read. The pooled read returns exactly
/// the runtime's bytes, or fails where the runtime fails with the same <see cref="HttpRequestError"/> as
/// the documented <see cref="HttpIOException"/>; it is stricter only where RFC 9112 §6.3 says a client
/// MUST refuse the framing, and those cases say so. Every rented array comes back exactly once.
/// </summary>
public class DifferentialTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    public enum Expect
    {
        /// <summary>Both succeed with the same bytes.</summary>
        SameBytes,

        /// <summary>Both fail, the runtime with an HttpIOException inside its HttpRequestException, the pooled read with that HttpIOException's error.</summary>
        SameFailure,

        /// <summary>The runtime accepts it; RFC 9112 §6.3 says a user agent MUST treat it as an unrecoverable error, and the pooled read does.</summary>
        StricterByRfc9112,
    }

    public static TheoryData<string, string, Expect> Corpus() => new()
    {
        { "content-length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabcde", Expect.SameBytes },
        { "chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n", Expect.SameBytes },
        { "read to close", "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nabcde", Expect.SameBytes },
        { "empty with length", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", Expect.SameBytes },
        { "same length twice", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nabcde", Expect.SameBytes },
        { "same length listed", "HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\nabcde", Expect.SameBytes },
        { "chunked overrides length", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n5\r\nabcde\r\n0\r\n\r\n", Expect.SameBytes },
        { "truncated", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabcde", Expect.SameFailure },
        { "missing last chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n", Expect.SameFailure },
        { "bad chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabcde\r\n0\r\n\r\n", Expect.SameFailure },
        { "two different lengths", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nabcdefg", Expect.StricterByRfc9112 },
        { "length not a number", "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\nabcde", Expect.StricterByRfc9112 },
        { "negative length", "HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\nabcde", Expect.StricterByRfc9112 },
        { "length past long", "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\nabcde", Expect.StricterByRfc9112 },
    };

    [Theory]
    [MemberData(nameof(Corpus))]
    public async Task Pooled_read_matches_the_runtime(string name, string response, Expect expect)
    {
        await using var server = RawHttpServer.Sending(response);
        using var client = new HttpClient();
        (byte[]? runtimeBytes, Exception? runtimeError) = await RuntimeReadAsync(client, server.Address);
        var pool = new TrackingArrayPool();
        (byte[]? pooledBytes, Exception? pooledError) = await PooledReadAsync(client, server.Address, pool);

        switch (expect)
        {
            case Expect.SameBytes:
                Assert.True(runtimeError is null, $"{name}: the runtime failed: {runtimeError}");
                Assert.True(pooledError is null, $"{name}: the pooled read failed: {pooledError}");
                Assert.Equal(runtimeBytes, pooledBytes);
                break;
            case Expect.SameFailure:
                HttpIOException runtimeIo = Assert.IsType<HttpIOException>(Assert.IsType<HttpRequestException>(runtimeError).InnerException);
                HttpIOException pooledIo = Assert.IsType<HttpIOException>(pooledError);
                Assert.Equal(runtimeIo.HttpRequestError, pooledIo.HttpRequestError);
                break;
            case Expect.StricterByRfc9112:
                Assert.True(runtimeError is null, $"{name}: the runtime now refuses it too: {runtimeError}");
                HttpIOException refused = Assert.IsType<HttpIOException>(pooledError);
                Assert.Equal(HttpRequestError.InvalidResponse, refused.HttpRequestError);
                Assert.Contains("RFC 9112", refused.Message, StringComparison.Ordinal);
                break;
        }

        pool.AssertBalanced(name);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Gzip_bodies_read_the_same_with_and_without_automatic_decompression(bool decompress)
    {
        byte[] text = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("pooled bodies compress well. ", 400)));
        using var packed = new MemoryStream();
        using (var gzip = new System.IO.Compression.GZipStream(packed, System.IO.Compression.CompressionLevel.Optimal, leaveOpen: true))
        {
            gzip.Write(text);
        }

        byte[] head = Encoding.ASCII.GetBytes($"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: {packed.Length}\r\n\r\n");
        await using var server = RawHttpServer.Sending([.. head, .. packed.ToArray()]);
        using var client = new HttpClient(new SocketsHttpHandler { AutomaticDecompression = decompress ? System.Net.DecompressionMethods.GZip : System.Net.DecompressionMethods.None });
        (byte[]? runtimeBytes, Exception? runtimeError) = await RuntimeReadAsync(client, server.Address);
        var pool = new TrackingArrayPool();
        (byte[]? pooledBytes, Exception? pooledError) = await PooledReadAsync(client, server.Address, pool);

        Assert.Null(runtimeError);
        Assert.Null(pooledError);
        Assert.Equal(runtimeBytes, pooledBytes);
        Assert.Equal(decompress ? text : packed.ToArray(), pooledBytes);
        pool.AssertBalanced();
    }

    [Fact]
    public async Task Slow_headers_and_a_trickled_body_read_the_same()
    {
        await using var server = new RawHttpServer(async (_, socket, stop) =>
        {
            await Task.Delay(300, stop);
            await RawHttpServer.SendAsync(socket, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", stop);
            for (int i = 0; i < 5; i++)
            {
                await Task.Delay(50, stop);
                await RawHttpServer.SendAsync(socket, $"4\r\npart\r\n", stop);
            }

            await RawHttpServer.SendAsync(socket, "0\r\n\r\n", stop);
        });
        using var client = new HttpClient();
        (byte[]? runtimeBytes, _) = await RuntimeReadAsync(client, server.Address);
        var pool = new TrackingArrayPool();
        (byte[]? pooledBytes, Exception? pooledError) = await PooledReadAsync(client, server.Address, pool);
        Assert.Null(pooledError);
        Assert.Equal(Encoding.ASCII.GetBytes("partpartpartpartpart"), runtimeBytes);
        Assert.Equal(runtimeBytes, pooledBytes);
        pool.AssertBalanced();
    }

    [Theory]
    [InlineData(1_000, 1_000)]
    [InlineData(1_001, 1_000)]
    public async Task Bodies_at_the_limit_pass_and_over_it_fail_with_the_limits_exception_chunked_or_not(int size, int limit)
    {
        foreach (bool chunked in new[] { false, true })
        {
            string body = new('z', size);
            string response = chunked
                ? $"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n{size:X}\r\n{body}\r\n0\r\n\r\n"
                : $"HTTP/1.1 200 OK\r\nContent-Length: {size}\r\n\r\n{body}";
            await using var server = RawHttpServer.Sending(response);
            using var client = new HttpClient { MaxResponseContentBufferSize = limit };
            (byte[]? runtimeBytes, Exception? runtimeError) = await RuntimeReadAsync(client, server.Address, buffered: true);
            var pool = new TrackingArrayPool();
            (byte[]? pooledBytes, Exception? pooledError) = await PooledReadAsync(client, server.Address, pool);

            if (size <= limit)
            {
                Assert.Null(runtimeError);
                Assert.Equal(runtimeBytes, pooledBytes);
            }
            else
            {
                Assert.IsType<HttpRequestException>(runtimeError); // the runtime's own "exceeds the buffer size"
                Assert.IsType<PayloadTooLargeException>(pooledError);
            }

            pool.AssertBalanced($"{size} chunked={chunked}");
        }
    }

    /// <summary>The runtime's own read: headers first, then the buffered body (or, buffered, the whole response at once).</summary>
    private static async Task<(byte[]? Bytes, Exception? Error)> RuntimeReadAsync(HttpClient client, Uri address, bool buffered = false)
    {
        try
        {
            using HttpResponseMessage response = await client.GetAsync(address, buffered ? HttpCompletionOption.ResponseContentRead : HttpCompletionOption.ResponseHeadersRead).WaitAsync(Patience);
            return (await response.Content.ReadAsByteArrayAsync().WaitAsync(Patience), null);
        }
        catch (Exception e) when (e is HttpRequestException or IOException)
        {
            return (null, e);
        }
    }

    private static async Task<(byte[]? Bytes, Exception? Error)> PooledReadAsync(HttpClient client, Uri address, TrackingArrayPool pool)
    {
        try
        {
            using PooledBuffer body = await client.GetPooledAsync(address, pool: pool).AsTask().WaitAsync(Patience);
            return (body.ToArray(), null);
        }
        catch (Exception e) when (e is HttpRequestException or IOException)
        {
            return (null, e);
        }
    }
}
