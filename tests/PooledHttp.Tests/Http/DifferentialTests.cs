using System.Text;
using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Http;

/// <summary>
/// A corpus of well- and ill-framed responses, each read twice from a raw socket: by the runtime
/// (<c>SendAsync</c> + <c>ReadAsByteArrayAsync</c>) and by the pooled read. The pooled read returns exactly
/// the runtime's bytes, or fails where the runtime fails with what the runtime throws: an
/// <see cref="HttpRequestException"/> with the same <see cref="HttpRequestError"/>; it is stricter only where
/// RFC 9112 §6.3 says a client MUST refuse the framing, and those cases say so. Every rented array comes back exactly once.
/// </summary>
public class DifferentialTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    public enum Expect
    {
        /// <summary>Both succeed with the same bytes.</summary>
        SameBytes,

        /// <summary>Both fail with an HttpRequestException, with the same HttpRequestError.</summary>
        SameFailure,

        /// <summary>The runtime accepts it; RFC 9112 §6.3 says a user agent MUST treat it as an unrecoverable error, and the pooled read does.</summary>
        StricterByRfc9112,
    }

    /// <summary>The library's public ways in, each given the same responses.</summary>
    public enum Door
    {
        /// <summary><c>client.GetPooledAsync(url)</c>: GET only; refuses a status that is not a success.</summary>
        GetPooled,

        /// <summary><c>client.SendPooledAsync(request)</c>: any method; refuses a status that is not a success.</summary>
        SendPooled,

        /// <summary><c>response.ReadPooledAsync()</c> on a response read with ResponseHeadersRead: no status check.</summary>
        ReadPooled,

        /// <summary><c>PooledBodyReader.ReadAsync</c> on the raw body stream, given the response's Content-Length
        /// (none when chunked): only where the framing is plain, since the reader sees no headers.</summary>
        RawReader,
    }

    /// <summary>A scripted response: its name, its bytes, what to expect, the request method, and whether its framing is plain enough for the raw reader.</summary>
    public sealed record Scripted(string Name, string Response, Expect Expect, string Method = "GET", bool Plain = false)
    {
        public int Status => int.Parse(Response.AsSpan(9, 3), System.Globalization.CultureInfo.InvariantCulture);

        public override string ToString() => Name;
    }

    public static IEnumerable<Scripted> Cases { get; } =
    [
        new("content-length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabcde", Expect.SameBytes, Plain: true),
        new("chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n", Expect.SameBytes, Plain: true),
        new("read to close", "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nabcde", Expect.SameBytes, Plain: true),
        new("empty with length", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", Expect.SameBytes, Plain: true),
        new("same length twice", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nabcde", Expect.SameBytes),
        new("same length listed", "HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\nabcde", Expect.SameBytes),
        new("chunked overrides length", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n5\r\nabcde\r\n0\r\n\r\n", Expect.SameBytes),
        new("chunked overrides a short length, 5,000 bytes", $"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n1388\r\n{new string('q', 5000)}\r\n0\r\n\r\n", Expect.SameBytes),
        new("HEAD with a length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", Expect.SameBytes, Method: "HEAD"),
        new("204 with a length", "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n", Expect.SameBytes),
        new("304 with a length", "HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n", Expect.SameBytes),
        new("500 with a body", "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 5\r\n\r\noops!", Expect.SameBytes, Plain: true),
        new("truncated", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabcde", Expect.SameFailure, Plain: true),
        new("missing last chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n", Expect.SameFailure, Plain: true),
        new("bad chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabcde\r\n0\r\n\r\n", Expect.SameFailure, Plain: true),
        new("two different lengths", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nabcdefg", Expect.StricterByRfc9112),
        new("length not a number", "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\nabcde", Expect.StricterByRfc9112),
        new("negative length", "HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\nabcde", Expect.StricterByRfc9112),
        new("length past long", "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\nabcde", Expect.StricterByRfc9112),
    ];

    /// <summary>Every case through every door it applies to.</summary>
    public static TheoryData<string, Door> Corpus()
    {
        var data = new TheoryData<string, Door>();
        foreach (Scripted c in Cases)
        {
            foreach (Door door in Enum.GetValues<Door>())
            {
                if ((door == Door.GetPooled && c.Method != "GET") || (door == Door.RawReader && !c.Plain))
                {
                    continue;
                }

                data.Add(c.Name, door);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Corpus))]
    public async Task Pooled_read_matches_the_runtime_through_every_door(string name, Door door)
    {
        Scripted c = Cases.Single(x => x.Name == name);
        await using var server = RawHttpServer.Sending(c.Response);
        using var client = new HttpClient();
        (byte[]? runtimeBytes, Exception? runtimeError) = await RuntimeReadAsync(client, server.Address, method: c.Method);
        var pool = new TrackingArrayPool();
        (byte[]? pooledBytes, Exception? pooledError) = await ThroughAsync(door, client, server.Address, c.Method, pool);

        bool checksStatus = door is Door.GetPooled or Door.SendPooled;
        if (checksStatus && c.Status is < 200 or > 299)
        {
            // The door refuses the status before any body is read, as GetByteArrayAsync does.
            Assert.Equal((System.Net.HttpStatusCode)c.Status, Assert.IsType<HttpRequestException>(pooledError).StatusCode);
            pool.AssertBalanced(name);
            return;
        }

        switch (c.Expect)
        {
            case Expect.SameBytes:
                Assert.True(runtimeError is null, $"{name}: the runtime failed: {runtimeError}");
                Assert.True(pooledError is null, $"{name} through {door}: the pooled read failed: {pooledError}");
                Assert.Equal(runtimeBytes, pooledBytes);
                break;
            case Expect.SameFailure:
                HttpRequestException runtimeFailure = Assert.IsType<HttpRequestException>(runtimeError);
                HttpRequestException pooledFailure = Assert.IsType<HttpRequestException>(pooledError);
                Assert.Equal(runtimeFailure.HttpRequestError, pooledFailure.HttpRequestError);
                Assert.Equal(runtimeFailure.InnerException?.GetType(), pooledFailure.InnerException?.GetType());
                break;
            case Expect.StricterByRfc9112:
                Assert.True(runtimeError is null, $"{name}: the runtime now refuses it too: {runtimeError}");
                HttpRequestException refused = Assert.IsType<HttpRequestException>(pooledError);
                Assert.Equal(HttpRequestError.InvalidResponse, refused.HttpRequestError);
                Assert.Contains("RFC 9112", refused.Message, StringComparison.Ordinal);
                break;
        }

        pool.AssertBalanced($"{name} through {door}");
    }

    [Fact]
    public async Task With_automatic_decompression_a_conflicting_length_goes_unseen_by_both_reads_as_documented()
    {
        // The handler removes Content-Length from a compressed response before anyone sees the headers
        // (BodyFraming's remarks say so): the library cannot apply RFC 9112's rule there, and reads what the
        // transport framed, exactly as the runtime does. Without decompression the same response is refused.
        byte[] text = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("pooled bodies compress well. ", 400)));
        using var packed = new MemoryStream();
        using (var gzip = new System.IO.Compression.GZipStream(packed, System.IO.Compression.CompressionLevel.Optimal, leaveOpen: true))
        {
            gzip.Write(text);
        }

        byte[] head = Encoding.ASCII.GetBytes($"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: {packed.Length}\r\nContent-Length: {packed.Length + 10}\r\n\r\n");
        foreach (bool decompress in new[] { true, false })
        {
            await using var server = RawHttpServer.Sending([.. head, .. packed.ToArray()]);
            using var client = new HttpClient(new SocketsHttpHandler { AutomaticDecompression = decompress ? System.Net.DecompressionMethods.GZip : System.Net.DecompressionMethods.None });
            (byte[]? runtimeBytes, Exception? runtimeError) = await RuntimeReadAsync(client, server.Address);
            var pool = new TrackingArrayPool();
            (byte[]? pooledBytes, Exception? pooledError) = await PooledReadAsync(client, server.Address, pool);
            Assert.Null(runtimeError);
            if (decompress)
            {
                Assert.Null(pooledError);
                Assert.Equal(runtimeBytes, pooledBytes);
            }
            else
            {
                Assert.Equal(HttpRequestError.InvalidResponse, Assert.IsType<HttpRequestException>(pooledError).HttpRequestError);
            }

            pool.AssertBalanced($"decompress={decompress}");
        }
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
    public async Task Bodies_at_the_limit_pass_and_over_it_fail_as_the_runtime_fails_chunked_or_not(int size, int limit)
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
                // A caller that catches the runtime's "exceeds the buffer size" catches the library's, which also names the limit.
                Assert.Equal(HttpRequestError.ConfigurationLimitExceeded, Assert.IsType<HttpRequestException>(runtimeError).HttpRequestError);
                PayloadTooLargeException tooLarge = Assert.IsType<PayloadTooLargeException>(pooledError);
                Assert.Equal(HttpRequestError.ConfigurationLimitExceeded, Assert.IsAssignableFrom<HttpRequestException>(tooLarge).HttpRequestError);
                Assert.Equal(limit, tooLarge.Limit);
            }

            pool.AssertBalanced($"{size} chunked={chunked}");
        }
    }

    /// <summary>The runtime's own read: headers first, then the buffered body (or, buffered, the whole response at once).</summary>
    internal static async Task<(byte[]? Bytes, Exception? Error)> RuntimeReadAsync(HttpClient client, Uri address, bool buffered = false, string method = "GET")
    {
        try
        {
            using var request = new HttpRequestMessage(new HttpMethod(method), address) { Version = client.DefaultRequestVersion, VersionPolicy = client.DefaultVersionPolicy };
            using HttpResponseMessage response = await client.SendAsync(request, buffered ? HttpCompletionOption.ResponseContentRead : HttpCompletionOption.ResponseHeadersRead).WaitAsync(Patience);
            return (await response.Content.ReadAsByteArrayAsync().WaitAsync(Patience), null);
        }
        catch (Exception e) when (e is HttpRequestException or IOException)
        {
            return (null, e);
        }
    }

    private static Task<(byte[]? Bytes, Exception? Error)> PooledReadAsync(HttpClient client, Uri address, TrackingArrayPool pool)
        => ThroughAsync(Door.GetPooled, client, address, "GET", pool);

    /// <summary>One read through <paramref name="door"/>; the body is copied out and the buffer disposed. Requests carry the client's default version and policy.</summary>
    internal static async Task<(byte[]? Bytes, Exception? Error)> ThroughAsync(Door door, HttpClient client, Uri address, string method, System.Buffers.ArrayPool<byte> pool)
    {
        HttpRequestMessage Request() => new(new HttpMethod(method), address) { Version = client.DefaultRequestVersion, VersionPolicy = client.DefaultVersionPolicy };
        try
        {
            switch (door)
            {
                case Door.GetPooled:
                {
                    using PooledBuffer body = await client.GetPooledAsync(address, pool: pool).AsTask().WaitAsync(Patience);
                    return (body.ToArray(), null);
                }

                case Door.SendPooled:
                {
                    using PooledBuffer body = await client.SendPooledAsync(Request(), pool: pool).AsTask().WaitAsync(Patience);
                    return (body.ToArray(), null);
                }

                case Door.ReadPooled:
                {
                    using HttpRequestMessage request = Request();
                    using HttpResponseMessage response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead).WaitAsync(Patience);
                    using PooledBuffer body = await response.ReadPooledAsync(pool: pool).AsTask().WaitAsync(Patience);
                    return (body.ToArray(), null);
                }

                default:
                {
                    using HttpRequestMessage request = Request();
                    using HttpResponseMessage response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead).WaitAsync(Patience);
                    long? declared = response.Headers.TransferEncodingChunked == true ? null : response.Content.Headers.ContentLength;
                    using Stream stream = await response.Content.ReadAsStreamAsync();
                    using PooledBuffer body = await PooledBodyReader.ReadAsync(stream, declared, pool: pool).AsTask().WaitAsync(Patience);
                    return (body.ToArray(), null);
                }
            }
        }
        catch (HttpRequestException e)
        {
            // Only what HttpClient's own reads throw for a failed body: any other exception escapes and fails the test.
            return (null, e);
        }
    }
}
