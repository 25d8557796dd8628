using System.Net;
using System.Net.Sockets;
using System.Text;
using PooledHttp.Buffers;
using PooledHttp.Content;
using PooledHttp.Http;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Http;

/// <summary>
/// Servers that stall, lie about lengths or send bodies where none may be, each answered the way
/// <see cref="HttpClient"/>'s own buffered read answers it (a differential check), with every rented
/// array returned exactly once.
/// </summary>
public class HostileServerTests
{
    /// <summary>Long enough for any honest answer here; a read that hangs fails the test instead of hanging it.</summary>
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task The_clients_timeout_covers_a_stalled_body_with_the_exception_HttpClient_throws()
    {
        await using RawHttpServer server = StalledBody();
        using var client = new HttpClient { Timeout = TimeSpan.FromMilliseconds(300) };
        var pool = new TrackingArrayPool();

        TaskCanceledException runtime = await Assert.ThrowsAsync<TaskCanceledException>(() => client.GetByteArrayAsync(server.Address).WaitAsync(Patience));
        TaskCanceledException pooled = await Assert.ThrowsAsync<TaskCanceledException>(() => client.GetPooledAsync(server.Address, pool: pool).AsTask().WaitAsync(Patience));

        Assert.IsType<TimeoutException>(runtime.InnerException);
        Assert.IsType<TimeoutException>(pooled.InnerException);
        Assert.Equal(runtime.Message, pooled.Message);
        pool.AssertBalanced();
    }

    [Fact]
    public async Task The_timeout_still_fires_after_exchanges_that_ended_in_time_and_a_timed_out_one_leaves_the_next_unharmed()
    {
        // The timed token sources are reused between exchanges: reuse must neither disarm nor leak a timeout.
        await using var quick = RawHttpServer.Sending("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc");
        await using RawHttpServer stalled = StalledBody();
        using var client = new HttpClient { Timeout = TimeSpan.FromMilliseconds(300) };
        for (int i = 0; i < 5; i++)
        {
            using PooledBuffer body = await client.GetPooledAsync(quick.Address).AsTask().WaitAsync(Patience);
            Assert.Equal("abc"u8.ToArray(), body.ToArray());
        }

        TaskCanceledException timedOut = await Assert.ThrowsAsync<TaskCanceledException>(() => client.GetPooledAsync(stalled.Address).AsTask().WaitAsync(Patience));
        Assert.IsType<TimeoutException>(timedOut.InnerException);
        using PooledBuffer after = await client.GetPooledAsync(quick.Address).AsTask().WaitAsync(Patience);
        Assert.Equal(3, after.Length);
    }

    [Fact]
    public async Task A_caller_cancellation_is_not_reported_as_a_timeout()
    {
        await using RawHttpServer server = StalledBody();
        using var client = new HttpClient { Timeout = TimeSpan.FromMinutes(5) };
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));
        OperationCanceledException error = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => client.GetPooledAsync(server.Address, cancellationToken: cancel.Token).AsTask().WaitAsync(Patience));
        Assert.IsNotType<TimeoutException>(error.InnerException);
    }

    [Fact]
    public async Task A_declared_length_is_not_trusted_for_allocation()
    {
        // 2,000,000,000 declared, 10 sent: the read may rent what arrived plus the up-front cap, not 2 GB.
        await using var server = RawHttpServer.Sending("HTTP/1.1 200 OK\r\nContent-Length: 2000000000\r\n\r\n0123456789");
        using var client = new HttpClient();
        var pool = new TrackingArrayPool();

        HttpRequestException error = await Assert.ThrowsAsync<HttpRequestException>(() => client.GetPooledAsync(server.Address, maxBytes: int.MaxValue, pool: pool).AsTask().WaitAsync(Patience));

        Assert.Equal(HttpRequestError.ResponseEnded, error.HttpRequestError);
        Assert.InRange(pool.LargestRequest, 1, PooledBodyReader.MaxUpFrontRent);
        pool.AssertBalanced();
    }

    [Fact]
    public async Task A_huge_declared_length_under_the_default_limit_is_the_limits_exception_not_out_of_memory()
    {
        var pool = new TrackingArrayPool();
        using var body = new MemoryStream(new byte[10]);
        await Assert.ThrowsAsync<PayloadTooLargeException>(() => PooledBodyReader.ReadAsync(body, declaredLength: int.MaxValue, pool: pool).AsTask());
        Assert.Equal(0, pool.Rents);
    }

    [Fact]
    public async Task A_body_past_the_up_front_cap_grows_as_it_arrives_and_keeps_every_byte()
    {
        int length = PooledBodyReader.MaxUpFrontRent + 1_000_003;
        byte[] expected = new byte[length];
        new Random(7).NextBytes(expected);
        var pool = new TrackingArrayPool();
        using (var body = new TrickleStream(expected, maxPerRead: 1 << 20))
        using (PooledBuffer read = await PooledBodyReader.ReadAsync(body, declaredLength: length, maxBytes: length, pool: pool))
        {
            Assert.True(read.Span.SequenceEqual(expected));
            Assert.True(pool.Rents >= 2, "a body past the cap must have grown");
        }

        pool.AssertBalanced();
    }

    [Theory]
    [InlineData("HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")]
    [InlineData("GET", "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n")]
    public async Task A_response_with_no_body_by_definition_reads_as_empty_as_the_runtime_reads_it(string method, string response)
    {
        await using var server = RawHttpServer.Sending(response);
        using var client = new HttpClient();

        using var runtimeRequest = new HttpRequestMessage(new HttpMethod(method), server.Address);
        using HttpResponseMessage runtimeResponse = await client.SendAsync(runtimeRequest);
        byte[] runtime = await runtimeResponse.Content.ReadAsByteArrayAsync();

        var pool = new TrackingArrayPool();
        using PooledBuffer pooled = await client.SendPooledAsync(new HttpRequestMessage(new HttpMethod(method), server.Address), pool: pool).AsTask().WaitAsync(Patience);

        Assert.Empty(runtime);
        Assert.Equal(runtime, pooled.ToArray());
        pool.AssertBalanced();
    }

    [Fact]
    public async Task Not_modified_fails_as_GetByteArrayAsync_fails()
    {
        await using var server = RawHttpServer.Sending("HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n");
        using var client = new HttpClient();
        HttpRequestException runtime = await Assert.ThrowsAsync<HttpRequestException>(() => client.GetByteArrayAsync(server.Address));
        HttpRequestException pooled = await Assert.ThrowsAsync<HttpRequestException>(() => client.GetPooledAsync(server.Address).AsTask());
        Assert.Equal(HttpStatusCode.NotModified, runtime.StatusCode);
        Assert.Equal(runtime.StatusCode, pooled.StatusCode);
    }

    [Fact]
    public void Json_content_under_its_limit_is_built_whatever_size_the_writer_asks_for()
    {
        // 3,402 bytes of JSON under a 10,000-byte limit: to write a string, Utf8JsonWriter asks for room
        // for its worst-case escaping, several times the string's length.
        var value = new { Text = new string('a', 3_391) };
        var pool = new TrackingArrayPool();
        using (PooledJsonContent content = PooledJsonContent.Create(value, options: null, pool: pool, maxBytes: 10_000))
        {
            Assert.Equal(3_402, content.Body.Length);
            Assert.Equal(System.Text.Json.JsonSerializer.SerializeToUtf8Bytes(value, PooledJson.Options), content.Body.ToArray());
        }

        Assert.Throws<BufferLimitExceededException>(() => PooledJsonContent.Create(value, options: null, pool: pool, maxBytes: 1_000));
        pool.AssertBalanced();
    }

    [Fact]
    public async Task Json_content_returns_its_buffer_only_after_the_serialization_in_progress_ends()
    {
        var pool = new TrackingArrayPool();
        PooledJsonContent content = PooledJsonContent.Create(new { Text = new string('x', 5_000) }, options: null, pool: pool, maxBytes: int.MaxValue);
        byte[] expected = content.Body.ToArray();
        var destination = new GatedStream();

        // As when SendAsync completes early (HTTP/2 duplex, an early final status): the request is
        // disposed while the content is still being written.
        Task serializing = content.CopyToAsync(destination);
        await destination.Started.Task.WaitAsync(Patience);
        content.Dispose();
        Assert.Equal(1, pool.Outstanding); // still in use by the write

        destination.Release.SetResult();
        await serializing.WaitAsync(Patience);
        Assert.Equal(expected, destination.Written.ToArray()); // no poison: the array was not returned mid-write
        pool.AssertBalanced();
        await Assert.ThrowsAsync<ObjectDisposedException>(() => content.CopyToAsync(Stream.Null));
    }

    [Fact]
    public async Task Recyclable_stream_content_goes_through_the_synchronous_send()
    {
        await using var server = new RawHttpServer(async (_, socket, stop) =>
        {
            // Read the body the client sends, then answer.
            byte[] sink = new byte[64 * 1024];
            int total = 0;
            while (total < 2_000 && (await socket.ReceiveAsync(sink, SocketFlags.None, stop)) is int n and > 0)
            {
                total += n;
            }

            await RawHttpServer.SendAsync(socket, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", stop);
        });
        using var client = new HttpClient();
        using var request = new HttpRequestMessage(HttpMethod.Post, server.Address)
        {
            Content = RecyclableStreamContent.CreateJson(new { Text = new string('y', 2_000) }),
        };
        using HttpResponseMessage response = await Task.Run(() => client.Send(request)).WaitAsync(Patience);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    [Fact]
    public async Task Two_racing_disposes_of_a_pooled_stream_return_its_array_once()
    {
        var pool = new TrackingArrayPool();
        for (int i = 0; i < 2_000; i++)
        {
            var stream = new PooledBufferStream(pool: pool);
            stream.Write(new byte[100]);
            using var go = new Barrier(2);
            Task first = Task.Run(() => { go.SignalAndWait(); stream.Dispose(); });
            Task second = Task.Run(() => { go.SignalAndWait(); stream.Dispose(); });
            await Task.WhenAll(first, second);
        }

        pool.AssertBalanced();
    }

    /// <summary>Headers at once, 10 of 100,000 bytes, then nothing for longer than any test waits.</summary>
    private static RawHttpServer StalledBody() => new(async (_, socket, stop) =>
        {
            await RawHttpServer.SendAsync(socket, "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n0123456789", stop);
            await Task.Delay(Timeout.Infinite, stop);
        });

    /// <summary>A destination whose first write waits until the test releases it.</summary>
    private sealed class GatedStream : Stream
    {
        public TaskCompletionSource Started { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public TaskCompletionSource Release { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public MemoryStream Written { get; } = new();

        public override bool CanRead => false;

        public override bool CanSeek => false;

        public override bool CanWrite => true;

        public override long Length => Written.Length;

        public override long Position { get => Written.Position; set => throw new NotSupportedException(); }

        public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
        {
            Started.TrySetResult();
            await Release.Task.WaitAsync(cancellationToken);
            Written.Write(buffer.Span); // reads the content's array now, after the dispose
        }

        public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
            => WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override void Flush()
        {
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();
    }
}
