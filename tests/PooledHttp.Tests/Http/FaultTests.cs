using System.Net;
using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Workshop.Server;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Http;

/// <summary>Every way a body can go wrong: a clear exception, and every rented array back in the pool.</summary>
public class FaultTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private LocalServer Server => fixture.Server;

    private HttpClient Client => fixture.Client;

    [Fact]
    public async Task Truncated_body_with_content_length_throws_and_returns_the_buffer()
    {
        var pool = new TrackingArrayPool();
        HttpRequestException error = await Assert.ThrowsAsync<HttpRequestException>(() => Client.GetPooledAsync(Server.Url("truncated?declared=200000&sent=70000"), pool: pool).AsTask());
        Assert.Equal(HttpRequestError.ResponseEnded, error.HttpRequestError);
        Assert.IsType<HttpIOException>(error.InnerException); // the runtime's content stream noticed, as for GetByteArrayAsync
        Assert.True(pool.Rents >= 1, "the read should have started before the connection dropped");
        pool.AssertBalanced();
    }

    [Fact]
    public async Task Connection_reset_mid_chunked_body_throws_and_returns_the_buffers()
    {
        var pool = new TrackingArrayPool();
        // What GetByteArrayAsync throws for the same reset: an HttpRequestException with the same error around the transport's exception.
        HttpRequestException runtime = await Assert.ThrowsAsync<HttpRequestException>(() => Client.GetByteArrayAsync(Server.ResetUrl(1_000_000, after: 300_000)));
        HttpRequestException error = await Assert.ThrowsAsync<HttpRequestException>(() => Client.GetPooledAsync(Server.ResetUrl(1_000_000, after: 300_000), pool: pool).AsTask());
        Assert.Equal(runtime.HttpRequestError, error.HttpRequestError);
        Assert.Equal(runtime.InnerException?.GetType(), error.InnerException?.GetType());
        Assert.True(pool.Rents >= 1);
        pool.AssertBalanced();
    }

    [Fact]
    public async Task Declared_length_over_the_limit_fails_before_renting_and_names_the_limit()
    {
        var pool = new TrackingArrayPool();
        var error = await Assert.ThrowsAsync<PayloadTooLargeException>(() => Client.GetPooledAsync(Server.BytesUrl(70_000, contentLength: true), maxBytes: 65_536, pool: pool).AsTask());
        Assert.Equal(65_536, error.Limit);
        Assert.Equal(70_000, error.DeclaredLength);
        Assert.Contains("65,536", error.Message, StringComparison.Ordinal);
        Assert.Equal(0, pool.Rents);
    }

    [Fact]
    public async Task Chunked_body_over_the_limit_throws_naming_the_limit_and_returns_the_buffers()
    {
        var pool = new TrackingArrayPool();
        var error = await Assert.ThrowsAsync<PayloadTooLargeException>(() => Client.GetPooledAsync(Server.BytesUrl(1_000_000), maxBytes: 100_000, pool: pool).AsTask());
        Assert.Equal(100_000, error.Limit);
        Assert.Contains("100,000 bytes", error.Message, StringComparison.Ordinal);
        Assert.True(pool.Rents >= 1);
        pool.AssertBalanced();
    }

    [Fact]
    public async Task Cancellation_mid_body_throws_and_returns_the_buffers()
    {
        var pool = new TrackingArrayPool();
        using var cancel = new CancellationTokenSource();
        var slow = new Uri(Server.Url("slow?size=1000000&chunk=1000&delayMs=20").ToString());
        Task<PooledBuffer> read = Client.GetPooledAsync(slow, pool: pool, cancellationToken: cancel.Token).AsTask();

        // Cancel only once the body is flowing: wait until the reader has rented its first array.
        SpinWait.SpinUntil(() => pool.Rents > 0, TimeSpan.FromSeconds(30));
        Assert.True(pool.Rents > 0, "the body never started");
        await cancel.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => read);
        pool.AssertBalanced();
    }

    [Fact]
    public async Task An_exception_while_holding_the_lease_still_returns_it()
    {
        var pool = new TrackingArrayPool();
        async Task UseAndFail()
        {
            using PooledBuffer body = await Client.GetPooledAsync(Server.BytesUrl(10_000, contentLength: true), pool: pool);
            throw new InvalidOperationException("the caller's own bug");
        }

        await Assert.ThrowsAsync<InvalidOperationException>(UseAndFail);
        Assert.Equal(1, pool.Rents);
        pool.AssertBalanced();
    }

    [Fact]
    public async Task Disposing_the_lease_twice_returns_it_once()
    {
        var pool = new TrackingArrayPool();
        PooledBuffer body = await Client.GetPooledAsync(Server.BytesUrl(5_000, contentLength: true), pool: pool);
        body.Dispose();
        body.Dispose();
        Assert.Throws<ObjectDisposedException>(() => body.Span.Length);
        Assert.Equal(1, pool.Returns);
        pool.AssertBalanced();
    }

    [Theory]
    [InlineData(404)]
    [InlineData(503)]
    public async Task Error_status_throws_with_the_status_and_rents_nothing(int status)
    {
        var pool = new TrackingArrayPool();
        var error = await Assert.ThrowsAsync<HttpRequestException>(() => Client.GetPooledAsync(Server.Url($"status?code={status}"), pool: pool).AsTask());
        Assert.Equal((HttpStatusCode)status, error.StatusCode);
        Assert.Equal(0, pool.Rents);
    }

    [Fact]
    public async Task Body_shorter_than_declared_is_an_error_never_a_partial_read()
    {
        var pool = new TrackingArrayPool();
        var error = await Assert.ThrowsAsync<HttpRequestException>(async () => await PooledBodyReader.ReadAsync(new TrickleStream(new byte[60], 7), 100, pool: pool));
        Assert.Equal(HttpRequestError.ResponseEnded, error.HttpRequestError);
        Assert.Contains("60 of the 100", error.Message, StringComparison.Ordinal);
        pool.AssertBalanced();
    }

    [Theory]
    [InlineData(50)]   // the rented array has a spare tail to probe into
    [InlineData(64)]   // it has none: the probe rents its own byte
    public async Task Body_longer_than_declared_is_an_error(int declared)
    {
        var pool = new TrackingArrayPool();
        var error = await Assert.ThrowsAsync<HttpRequestException>(async () => await PooledBodyReader.ReadAsync(new MemoryStream(new byte[100]), declared, pool: pool));
        Assert.Equal(HttpRequestError.InvalidResponse, error.HttpRequestError);
        pool.AssertBalanced();
    }

    [Fact]
    public async Task Empty_body_with_content_length_gives_an_empty_lease()
    {
        var pool = new TrackingArrayPool();
        using (PooledBuffer body = await PooledBodyReader.ReadAsync(new MemoryStream(), 0, pool: pool))
        {
            Assert.Equal(0, body.Length);
        }

        pool.AssertBalanced();
    }
}
