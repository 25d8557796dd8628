using System.Globalization;
using System.Net.Sockets;
using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Http;

/// <summary>
/// How an exchange ends when somebody ends it: the caller's token, the client's <see cref="HttpClient.CancelPendingRequests"/>
/// and <see cref="HttpClient.Dispose()"/>, the client's timeout. Each case runs <see cref="HttpClient.GetByteArrayAsync(Uri?, CancellationToken)"/>
/// and the pooled read side by side, over HTTP/1.1 (a raw socket) and h2c (Kestrel), and requires the same exception type, the
/// same token and the same message where HttpClient's is fixed (dotnet/runtime, <c>HttpClient.cs</c>, <c>HandleFailure</c>).
/// </summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Reliability", "CA1001", Justification = "xunit disposes the servers through IAsyncLifetime.")]
public sealed class CancellationContractTests : IAsyncLifetime
{
    /// <summary>Long enough for any honest answer here; a read that hangs fails the test instead of hanging it.</summary>
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    private H2cServer _h2c = null!;
    private RawHttpServer _http11 = null!;

    public enum Wire
    {
        Http11,
        H2c,
    }

    public enum Moment
    {
        BeforeTheCall,
        MidBody,
    }

    public enum Door
    {
        GetPooled,
        SendPooled,
    }

    public static TheoryData<Wire, Moment, Door> CallerCases()
    {
        var data = new TheoryData<Wire, Moment, Door>();
        foreach (Wire wire in Enum.GetValues<Wire>())
        {
            foreach (Moment moment in Enum.GetValues<Moment>())
            {
                foreach (Door door in Enum.GetValues<Door>())
                {
                    data.Add(wire, moment, door);
                }
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(CallerCases))]
    public async Task A_callers_cancellation_carries_the_callers_token_as_GetByteArrayAsync_does(Wire wire, Moment moment, Door door)
    {
        using HttpClient client = ClientFor(wire);
        var pool = new TrackingArrayPool();

        TaskCanceledException runtime = await CancelledAsync(moment, token => client.GetByteArrayAsync(Trickle(wire), token));
        CancellationToken runtimeToken = runtime.CancellationToken;
        (TaskCanceledException pooled, CancellationToken callerToken) = await CancelledWithTokenAsync(moment, token => ThroughAsync(door, client, Trickle(wire), pool, token));

        Assert.True(runtime.CancellationToken.IsCancellationRequested, "the runtime's exception carries a cancelled token");
        Assert.Equal(callerToken, pooled.CancellationToken);
        Assert.NotEqual(default, runtimeToken);
        pool.AssertBalanced($"{wire} {moment} {door}");
    }

    [Fact]
    public async Task A_token_cancelled_during_the_headers_is_the_callers_too()
    {
        await using RawHttpServer silent = new(async (_, _, stop) => await Task.Delay(Timeout.Infinite, stop));
        using var client = new HttpClient { Timeout = Timeout.InfiniteTimeSpan };
        var pool = new TrackingArrayPool();
        foreach (Func<CancellationToken, Task> call in new Func<CancellationToken, Task>[]
                 {
                     token => client.GetByteArrayAsync(silent.Address, token),
                     token => client.GetPooledAsync(silent.Address, pool: pool, cancellationToken: token).AsTask(),
                 })
        {
            using var caller = new CancellationTokenSource();
            Task read = call(caller.Token);
            await Task.Delay(200);
            Assert.False(read.IsCompleted, "the server sends no headers: the call must still be waiting");
            await caller.CancelAsync();
            TaskCanceledException error = await Assert.ThrowsAsync<TaskCanceledException>(() => read.WaitAsync(Patience));
            Assert.Equal(caller.Token, error.CancellationToken);
        }

        pool.AssertBalanced();
    }

    public static TheoryData<Wire, bool> ClientEnds() => new()
    {
        { Wire.Http11, false },
        { Wire.Http11, true },
        { Wire.H2c, false },
        { Wire.H2c, true },
    };

    [Theory]
    [MemberData(nameof(ClientEnds))]
    public async Task CancelPendingRequests_and_Dispose_end_a_body_in_flight_as_they_end_GetByteArrayAsync(Wire wire, bool dispose)
    {
        var pool = new TrackingArrayPool();
        foreach (bool pooled in new[] { false, true })
        {
            // Timeout infinite: nothing but the client's own cancellation can end this body.
            HttpClient client = ClientFor(wire);
            client.Timeout = Timeout.InfiniteTimeSpan;
            Task read = pooled
                ? ReadAllAsync(client.GetPooledAsync(Trickle(wire), pool: pool))
                : client.GetByteArrayAsync(Trickle(wire));
            await BodyFlowingAsync(pooled ? pool : null, read);
            if (dispose)
            {
                client.Dispose();
            }
            else
            {
                client.CancelPendingRequests();
            }

            Exception error = await Assert.ThrowsAnyAsync<Exception>(() => read.WaitAsync(Patience));
            Assert.IsType<TaskCanceledException>(error);
            client.Dispose();
        }

        pool.AssertBalanced($"{wire} dispose={dispose}");
    }

    [Fact]
    public async Task A_disposed_client_is_refused_with_HttpClients_exception_and_the_request_left_to_its_owner()
    {
        using var client = new HttpClient();
        client.Dispose();
        var pool = new TrackingArrayPool();
        var runtime = await Assert.ThrowsAsync<ObjectDisposedException>(() => client.GetByteArrayAsync(_http11.Address));
        using var request = new HttpRequestMessage(HttpMethod.Post, _http11.Address) { Content = PooledHttp.Content.PooledJsonContent.Create(new { a = 1 }, options: null, pool: pool, maxBytes: int.MaxValue) };
        var pooled = await Assert.ThrowsAsync<ObjectDisposedException>(() => client.SendPooledAsync(request).AsTask());
        Assert.Equal(runtime.ObjectName, pooled.ObjectName);
        Assert.Equal(1, pool.Outstanding); // the request is the caller's, as with SendAsync
        request.Dispose();
        pool.AssertBalanced();
    }

    [Theory]
    [InlineData("de-DE")]
    [InlineData("en-US")]
    public async Task The_timeout_message_is_HttpClients_in_the_current_culture(string culture)
    {
        CultureInfo before = CultureInfo.CurrentCulture;
        CultureInfo.CurrentCulture = new CultureInfo(culture);
        try
        {
            using var client = new HttpClient { Timeout = TimeSpan.FromMilliseconds(300) };
            var pool = new TrackingArrayPool();
            TaskCanceledException runtime = await Assert.ThrowsAsync<TaskCanceledException>(() => client.GetByteArrayAsync(Trickle(Wire.Http11)).WaitAsync(Patience));
            TaskCanceledException pooled = await Assert.ThrowsAsync<TaskCanceledException>(() => client.GetPooledAsync(Trickle(Wire.Http11), pool: pool).AsTask().WaitAsync(Patience));
            Assert.Equal(runtime.Message, pooled.Message);
            Assert.Contains((0.3).ToString(CultureInfo.CurrentCulture), pooled.Message, StringComparison.Ordinal);
            Assert.IsType<TimeoutException>(pooled.InnerException);
            pool.AssertBalanced();
        }
        finally
        {
            CultureInfo.CurrentCulture = before;
        }
    }

    [Fact]
    public async Task An_IO_failure_after_the_deadline_is_a_cancellation_as_HttpClient_reports_it_and_names_the_timeout()
    {
        // A body stream that, once the exchange's token fires, fails with an IOException instead of a cancellation:
        // what a transport torn down under a read may do. HttpClient (.NET 10) reports it as a TaskCanceledException
        // around the wrapped I/O failure; the pooled read throws the same type and, since the deadline had passed,
        // says it was the timeout, as HttpClient does when the read itself reports the cancellation.
        using var client = new HttpClient(new StreamHandler(token => new FailsOnCancelStream(token))) { Timeout = TimeSpan.FromMilliseconds(300) };
        var pool = new TrackingArrayPool();
        Exception runtime = await Assert.ThrowsAnyAsync<Exception>(() => client.GetByteArrayAsync(new Uri("http://example.invalid/")).WaitAsync(Patience));
        Exception pooled = await Assert.ThrowsAnyAsync<Exception>(() => client.GetPooledAsync(new Uri("http://example.invalid/"), pool: pool).AsTask().WaitAsync(Patience));
        Assert.IsType<TaskCanceledException>(runtime);
        Assert.IsType<TaskCanceledException>(pooled);
        TimeoutException timeout = Assert.IsType<TimeoutException>(pooled.InnerException);
        Assert.IsType<IOException>(Assert.IsType<HttpRequestException>(timeout.InnerException).InnerException);
        pool.AssertBalanced();
    }

    public async Task InitializeAsync()
    {
        _h2c = await H2cServer.StartAsync();
        _http11 = new RawHttpServer(async (_, socket, stop) =>
        {
            await RawHttpServer.SendAsync(socket, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", stop);
            while (!stop.IsCancellationRequested)
            {
                await RawHttpServer.SendAsync(socket, "4\r\npart\r\n", stop);
                await Task.Delay(50, stop);
            }
        });
    }

    public async Task DisposeAsync()
    {
        await _http11.DisposeAsync();
        await _h2c.DisposeAsync();
    }

    private static async Task ReadAllAsync(ValueTask<PooledBuffer> read)
    {
        using PooledBuffer body = await read;
    }

    /// <summary>Waits until the body is flowing: the pooled read has rented, or the runtime's read has had time to start.</summary>
    private static async Task BodyFlowingAsync(TrackingArrayPool? pool, Task read)
    {
        if (pool is not null)
        {
            int before = pool.Rents;
            SpinWait.SpinUntil(() => pool.Rents > before || read.IsCompleted, Patience);
        }

        await Task.Delay(300);
        Assert.False(read.IsCompleted, $"the body should still be flowing: {read.Exception?.InnerException}");
    }

    private static async Task<TaskCanceledException> CancelledAsync(Moment moment, Func<CancellationToken, Task> call)
        => (await CancelledWithTokenAsync(moment, call)).Error;

    private static async Task<(TaskCanceledException Error, CancellationToken Token)> CancelledWithTokenAsync(Moment moment, Func<CancellationToken, Task> call)
    {
        using var caller = new CancellationTokenSource();
        if (moment == Moment.BeforeTheCall)
        {
            await caller.CancelAsync();
        }

        Task read = call(caller.Token);
        if (moment == Moment.MidBody)
        {
            await Task.Delay(400);
            Assert.False(read.IsCompleted, $"the body should still be flowing: {read.Exception?.InnerException}");
            await caller.CancelAsync();
        }

        TaskCanceledException error = await Assert.ThrowsAsync<TaskCanceledException>(() => read.WaitAsync(Patience));
        Assert.Equal(caller.Token, error.CancellationToken);
        return (error, caller.Token);
    }

    private static Task ThroughAsync(Door door, HttpClient client, Uri address, TrackingArrayPool pool, CancellationToken token) => door switch
    {
        Door.GetPooled => ReadAllAsync(client.GetPooledAsync(address, pool: pool, cancellationToken: token)),
        _ => ReadAllAsync(client.SendPooledAsync(new HttpRequestMessage(HttpMethod.Get, address) { Version = client.DefaultRequestVersion, VersionPolicy = client.DefaultVersionPolicy }, pool: pool, cancellationToken: token)),
    };

    private static HttpClient ClientFor(Wire wire) => wire == Wire.H2c ? H2cServer.Client() : new HttpClient();

    private Uri Trickle(Wire wire) => wire == Wire.H2c ? new Uri(_h2c.Address, "trickle") : _http11.Address;

    /// <summary>A handler that answers every request with a 200 whose body is the stream the factory makes from the request's token.</summary>
    private sealed class StreamHandler(Func<CancellationToken, Stream> body) : HttpMessageHandler
    {
        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
            => Task.FromResult(new HttpResponseMessage(System.Net.HttpStatusCode.OK) { RequestMessage = request, Content = new StreamContent(body(cancellationToken)) });
    }

    /// <summary>Gives a few bytes, then waits for the token and fails with an <see cref="IOException"/> when it fires.</summary>
    private sealed class FailsOnCancelStream(CancellationToken exchange) : Stream
    {
        private bool _gaveSome;

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            if (!_gaveSome)
            {
                _gaveSome = true;
                buffer.Span[0] = (byte)'x';
                return 1;
            }

            using var linked = CancellationTokenSource.CreateLinkedTokenSource(exchange, cancellationToken);
            try
            {
                await Task.Delay(Timeout.Infinite, linked.Token);
            }
            catch (OperationCanceledException)
            {
            }

            throw new IOException("The transport was torn down.", new SocketException((int)SocketError.OperationAborted));
        }

        public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) => ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}
