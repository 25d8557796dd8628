using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using PooledHttp.Buffers;
using PooledHttp.Content;
using PooledHttp.Http;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Http;

/// <summary>
/// Calls written as a caller writes them for <see cref="HttpClient"/> and <see cref="JsonContent"/>: each compiles, binds to
/// the overload it reads as, and does what it says. (Before the options were shaped this way, none of these compiled:
/// CS1503 for a string address with <c>maxBytes:</c> or <c>pool:</c>, CS1503/CS0121 for the content's options, CS7036 for the pool's.)
/// </summary>
public class CallShapeTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private sealed record Problem(string Title, int Status);

    [Fact]
    public async Task A_string_address_takes_the_same_named_options_as_a_Uri()
    {
        string url = fixture.Server.BytesUrl(2_000, contentLength: true).ToString();
        var pool = new TrackingArrayPool();
        using (PooledBuffer limited = await fixture.Client.GetPooledAsync(url, maxBytes: 4_096))
        {
            Assert.Equal(2_000, limited.Length);
        }

        await Assert.ThrowsAsync<PayloadTooLargeException>(() => fixture.Client.GetPooledAsync(url, maxBytes: 1_024).AsTask());

        using (PooledBuffer pooled = await fixture.Client.GetPooledAsync(url, pool: pool))
        {
            Assert.Equal(2_000, pooled.Length);
            Assert.Equal(1, pool.Outstanding);
        }

        using (PooledBuffer all = await fixture.Client.GetPooledAsync(url, maxBytes: 4_096, pool: pool, cancellationToken: CancellationToken.None))
        {
            Assert.Equal(2_000, all.Length);
        }

        pool.AssertBalanced();
    }

    [Fact]
    public async Task Json_content_takes_options_as_JsonContent_does_and_a_media_type()
    {
        var options = new JsonSerializerOptions { PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower };
        var problem = new Problem("Out of stock", 409);

        using PooledJsonContent positional = PooledJsonContent.Create(problem, options);
        using PooledJsonContent named = PooledJsonContent.Create(problem, options: options);
        using JsonContent runtime = JsonContent.Create(problem, options: options);
        string expected = await runtime.ReadAsStringAsync();
        Assert.Equal(expected, Encoding.UTF8.GetString(positional.Body.Span));
        Assert.Equal(expected, Encoding.UTF8.GetString(named.Body.Span));

        using PooledJsonContent typed = PooledJsonContent.Create(problem, mediaType: new MediaTypeHeaderValue("application/problem+json"));
        Assert.Equal("application/problem+json", typed.Headers.ContentType?.MediaType);
        using PooledJsonContent plain = PooledJsonContent.Create(problem);
        Assert.Equal("application/json; charset=utf-8", plain.Headers.ContentType?.ToString());

        // Positional nulls bind to the serializer's options, the pool and the limit, as they read.
        Assert.Throws<BufferLimitExceededException>(() => PooledJsonContent.Create(problem, null, null, 10));
        using PooledJsonContent small = PooledJsonContent.Create(42, null, null, 10);
        Assert.Equal("42", Encoding.UTF8.GetString(small.Body.Span));

        // Two arguments, the second a null: "no options", as it reads (a null JsonTypeInfo<T> would throw).
        using PooledJsonContent twoArguments = PooledJsonContent.Create(problem, null);
        Assert.Equal(Encoding.UTF8.GetString(plain.Body.Span), Encoding.UTF8.GetString(twoArguments.Body.Span));

        Assert.Throws<ArgumentException>(() => PooledJsonContent.Create(problem, mediaType: new MediaTypeHeaderValue("application/json") { CharSet = "utf-16" }));
        // "utf8" names UTF-8 too (Encoding.GetEncoding("utf8") is UTF-8).
        using PooledJsonContent alias = PooledJsonContent.Create(problem, mediaType: new MediaTypeHeaderValue("application/json") { CharSet = "utf8" });
        Assert.Equal("utf8", alias.Headers.ContentType?.CharSet);
    }

    [Fact]
    public void A_pool_takes_any_of_its_settings_by_name()
    {
        BoundedArrayPool secret = BodyPool.Create(64, 1 << 20, clearOnReturn: true);
        Assert.True(secret.ClearOnReturn);
        Assert.Equal("unnamed", secret.Name);
        BoundedArrayPool named = BodyPool.Create(8, 1 << 20, name: "orders");
        Assert.Equal("orders", named.Name);
        Assert.False(named.ClearOnReturn);
        Assert.Equal(BoundedArrayPool.DefaultIdleTimeout, named.IdleTimeout);
        Assert.Equal(TimeSpan.FromSeconds(5), BodyPool.Create(8, 1 << 20, idleTimeout: TimeSpan.FromSeconds(5)).IdleTimeout);
    }
}
