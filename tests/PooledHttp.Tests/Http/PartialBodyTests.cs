using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Http;

/// <summary>
/// <c>ReadPooledAsync</c> is given a response the caller already has, and the caller may have read some of its body
/// already. Part of a body must never come back as the body: the read answers as <see cref="HttpContent.ReadAsByteArrayAsync()"/>
/// answers for the same response, byte for byte or exception type for exception type.
/// </summary>
public sealed class PartialBodyTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    private const string Chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nB\r\nhello world\r\n0\r\n\r\n";
    private const string WithLength = "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world";

    public enum Before
    {
        /// <summary>The caller opened the body stream and read 3 bytes of it.</summary>
        ReadThreeBytes,

        /// <summary>The body was read whole once already, without buffering it in the content: by ReadPooledAsync, or by the
        /// body stream read to its end for the runtime.</summary>
        ReadWhole,

        /// <summary>The response was disposed.</summary>
        Disposed,
    }

    public static TheoryData<string, bool, Before> Cases()
    {
        var data = new TheoryData<string, bool, Before>();
        foreach (string response in new[] { Chunked, WithLength, "HTTP/1.1 204 No Content\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n" })
        {
            foreach (bool buffered in new[] { false, true })
            {
                foreach (Before before in Enum.GetValues<Before>())
                {
                    data.Add(response, buffered, before);
                }
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task ReadPooledAsync_answers_as_ReadAsByteArrayAsync_after_the_body_was_touched(string scripted, bool buffered, Before before)
    {
        await using RawHttpServer server = RawHttpServer.Sending(scripted);
        using var client = new HttpClient();
        var pool = new TrackingArrayPool();

        (byte[]? runtimeBytes, Exception? runtimeError) = await AfterAsync(client, server.Address, buffered, before, pooled: false, pool);
        (byte[]? pooledBytes, Exception? pooledError) = await AfterAsync(client, server.Address, buffered, before, pooled: true, pool);

        string name = $"{scripted[..12]}… buffered={buffered} {before}";
        Assert.True(runtimeError?.GetType() == pooledError?.GetType(), $"{name}: the runtime {Describe(runtimeBytes, runtimeError)}, the pooled read {Describe(pooledBytes, pooledError)}");
        Assert.Equal(runtimeBytes, pooledBytes);
        pool.AssertBalanced(name);
    }

    private static string Describe(byte[]? bytes, Exception? error)
        => error is null ? $"returned {bytes!.Length} bytes" : $"threw {error.GetType().Name}: {error.Message}";

    private static async Task<(byte[]? Bytes, Exception? Error)> AfterAsync(HttpClient client, Uri address, bool buffered, Before before, bool pooled, TrackingArrayPool pool)
    {
        using HttpResponseMessage response = await client.GetAsync(address, buffered ? HttpCompletionOption.ResponseContentRead : HttpCompletionOption.ResponseHeadersRead).WaitAsync(Patience);
        switch (before)
        {
            case Before.ReadThreeBytes:
                Stream body = await response.Content.ReadAsStreamAsync();
                _ = await body.ReadAtLeastAsync(new byte[3], 3, throwOnEndOfStream: false);
                break;
            case Before.ReadWhole when pooled:
                (await response.ReadPooledAsync(pool: pool)).Dispose();
                break;
            case Before.ReadWhole:
                // The runtime's way to read a body whole without buffering it in the content: its stream, to the end.
                await (await response.Content.ReadAsStreamAsync()).CopyToAsync(Stream.Null);
                break;
            case Before.Disposed:
                response.Dispose();
                break;
        }

        try
        {
            if (!pooled)
            {
                return (await response.Content.ReadAsByteArrayAsync().WaitAsync(Patience), null);
            }

            using PooledBuffer lease = await response.ReadPooledAsync(pool: pool).AsTask().WaitAsync(Patience);
            return (lease.ToArray(), null);
        }
        catch (Exception e) when (e is not TimeoutException)
        {
            return (null, e);
        }
    }

    [Fact]
    public async Task A_pooled_read_consumes_the_body_where_ReadAsByteArrayAsync_buffers_it_so_a_second_read_throws()
    {
        // HttpContent.ReadAsByteArrayAsync loads the body into the content's buffer, so it can be read again; the pooled
        // read copies it into the pool's array instead, and the content is left with nothing to read twice.
        await using RawHttpServer server = RawHttpServer.Sending(WithLength);
        using var client = new HttpClient();
        var pool = new TrackingArrayPool();

        using (HttpResponseMessage response = await client.GetAsync(server.Address, HttpCompletionOption.ResponseHeadersRead))
        {
            Assert.Equal(await response.Content.ReadAsByteArrayAsync(), await response.Content.ReadAsByteArrayAsync());
        }

        using (HttpResponseMessage response = await client.GetAsync(server.Address, HttpCompletionOption.ResponseHeadersRead))
        {
            using (PooledBuffer first = await response.ReadPooledAsync(1024, pool, CancellationToken.None))
            {
                Assert.Equal("hello world"u8.ToArray(), first.Span.ToArray());
            }

            await Assert.ThrowsAsync<InvalidOperationException>(() => response.ReadPooledAsync(1024, pool, CancellationToken.None).AsTask());
            await Assert.ThrowsAsync<InvalidOperationException>(() => response.Content.ReadAsStringAsync());
        }

        pool.AssertBalanced();
    }
}
