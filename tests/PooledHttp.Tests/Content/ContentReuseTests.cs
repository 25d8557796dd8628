using System.Globalization;
using System.Net.Http.Json;
using System.Text;
using PooledHttp.Buffers;
using PooledHttp.Content;
using PooledHttp.Http;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Content;

/// <summary>
/// The caller owns the request, as with <see cref="HttpClient.SendAsync(HttpRequestMessage)"/>: <c>SendPooledAsync</c> neither
/// disposes it nor its content, so a content sent again in a new request (a retry policy's way) goes out again, as
/// <see cref="JsonContent"/> does through <c>SendAsync</c>.
/// </summary>
public class ContentReuseTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private static readonly object Order = new { order = 42, lines = new[] { "pooled", "bodies" } };

    [Fact]
    public async Task A_content_sent_twice_in_two_requests_goes_out_twice_as_JsonContent_does_through_SendAsync()
    {
        Uri sink = fixture.Server.Url("sink");
        var runtime = new List<string>();
        using (JsonContent json = JsonContent.Create(Order))
        {
            for (int attempt = 0; attempt < 2; attempt++)
            {
                var request = new HttpRequestMessage(HttpMethod.Post, sink) { Content = json };
                using HttpResponseMessage response = await fixture.Client.SendAsync(request);
                runtime.Add(await response.EnsureSuccessStatusCode().Content.ReadAsStringAsync());
            }
        }

        var pool = new TrackingArrayPool();
        var pooled = new List<string>();
        using (PooledJsonContent content = PooledJsonContent.Create(Order, options: null, pool: pool, maxBytes: int.MaxValue))
        {
            for (int attempt = 0; attempt < 2; attempt++)
            {
                var request = new HttpRequestMessage(HttpMethod.Post, sink) { Content = content };
                using PooledBuffer body = await fixture.Client.SendPooledAsync(request);
                pooled.Add(Encoding.ASCII.GetString(body.Span));
                Assert.Same(content, request.Content);
                Assert.True(content.Body.Length > 0, "the request and its content are the caller's: still usable after the call");
            }

            Assert.Equal(1, pool.Outstanding); // the content's array, until the content is disposed
        }

        Assert.Equal(runtime, pooled);
        Assert.Equal(SerializedLength(), int.Parse(pooled[0], CultureInfo.InvariantCulture));
        pool.AssertBalanced();

        static int SerializedLength() => System.Text.Json.JsonSerializer.SerializeToUtf8Bytes(Order, PooledJson.Options).Length;
    }

    [Fact]
    public async Task A_request_refused_at_the_call_is_left_to_its_owner_as_SendAsync_leaves_it()
    {
        var pool = new TrackingArrayPool();
        using var disposedClient = new HttpClient();
        disposedClient.Dispose();
        using var request = new HttpRequestMessage(HttpMethod.Post, fixture.Server.Url("sink"))
        {
            Content = PooledJsonContent.Create(Order, options: null, pool: pool, maxBytes: int.MaxValue),
        };

        await Assert.ThrowsAsync<ObjectDisposedException>(() => disposedClient.SendAsync(request));
        await Assert.ThrowsAsync<ObjectDisposedException>(() => disposedClient.SendPooledAsync(request).AsTask());
        Assert.Equal(1, pool.Outstanding);
        request.Dispose();
        pool.AssertBalanced();
    }
}
