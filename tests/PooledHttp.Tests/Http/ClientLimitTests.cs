using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Http;

/// <summary>
/// <see cref="HttpClient.MaxResponseContentBufferSize"/> is the client's safety limit: a per-call <c>maxBytes</c> may lower
/// it, never raise it. A body that <c>GetByteArrayAsync</c> refuses, the pooled read refuses too, with the same error.
/// </summary>
public sealed class ClientLimitTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    [Theory]
    [InlineData(true, false)]
    [InlineData(false, false)]
    [InlineData(true, true)]
    [InlineData(false, true)]
    public async Task A_per_call_limit_above_the_clients_does_not_raise_it(bool declared, bool send)
    {
        string body = new('b', 5_000);
        await using RawHttpServer server = RawHttpServer.Sending(declared
            ? $"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n{body}"
            : $"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1388\r\n{body}\r\n0\r\n\r\n");
        using var client = new HttpClient { MaxResponseContentBufferSize = 1_000 };
        var pool = new TrackingArrayPool();

        HttpRequestException runtime = await Assert.ThrowsAsync<HttpRequestException>(() => client.GetByteArrayAsync(server.Address).WaitAsync(Patience));
        PayloadTooLargeException pooled = await Assert.ThrowsAsync<PayloadTooLargeException>(async () =>
        {
            if (send)
            {
                using var request = new HttpRequestMessage(HttpMethod.Get, server.Address);
                using PooledBuffer lease = await client.SendPooledAsync(request, maxBytes: 10_000, pool: pool).AsTask().WaitAsync(Patience);
            }
            else
            {
                using PooledBuffer lease = await client.GetPooledAsync(server.Address, maxBytes: 10_000, pool: pool).AsTask().WaitAsync(Patience);
            }
        });

        Assert.Equal(HttpRequestError.ConfigurationLimitExceeded, runtime.HttpRequestError);
        Assert.Equal(runtime.HttpRequestError, pooled.HttpRequestError);
        Assert.Equal(1_000, pooled.Limit);
        pool.AssertBalanced();
    }

    [Fact]
    public async Task A_per_call_limit_below_the_clients_lowers_it()
    {
        await using RawHttpServer server = RawHttpServer.Sending($"HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n{new string('b', 500)}");
        using var client = new HttpClient { MaxResponseContentBufferSize = 1_000 };
        PayloadTooLargeException pooled = await Assert.ThrowsAsync<PayloadTooLargeException>(() => client.GetPooledAsync(server.Address, maxBytes: 100).AsTask().WaitAsync(Patience));
        Assert.Equal(100, pooled.Limit);
    }
}
