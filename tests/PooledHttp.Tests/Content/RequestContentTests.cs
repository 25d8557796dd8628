using System.Globalization;
using System.Net.Http.Headers;
using System.Text.Json;
using Microsoft.IO;
using PooledHttp.Buffers;
using PooledHttp.Content;
using PooledHttp.Workshop.Server;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Content;

public class RequestContentTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private static readonly Book[] Books = Book.Catalogue(2_000);

    [Fact]
    public async Task Pooled_json_content_sends_the_serializer_output_with_a_content_length()
    {
        var pool = new TrackingArrayPool();
        byte[] expected = JsonSerializer.SerializeToUtf8Bytes(Books, PooledJson.Options);

        using (var content = PooledJsonContent.Create(Books, options: null, pool: pool, maxBytes: int.MaxValue))
        {
            Assert.Equal(expected.Length, content.Headers.ContentLength);
            Assert.Equal("application/json", content.Headers.ContentType?.MediaType);
            Assert.True(content.Body.Span.SequenceEqual(expected));

            using HttpResponseMessage response = await fixture.Client.PostAsync(fixture.Server.Url("sink"), content);
            response.EnsureSuccessStatusCode();
            Assert.Equal(expected.Length, long.Parse(await response.Content.ReadAsStringAsync(), CultureInfo.InvariantCulture));
        }

        pool.AssertBalanced();
    }

    [Fact]
    public void Pooled_json_content_from_source_generated_metadata_is_the_serializers_output_and_keeps_its_limit()
    {
        // The overload trimmed and native AOT services use: no reflection, the context's own options (camelCase here).
        var pool = new TrackingArrayPool();
        byte[] expected = JsonSerializer.SerializeToUtf8Bytes(Books, GeneratedJson.Default.BookArray);
        using (PooledJsonContent content = PooledJsonContent.Create(Books, GeneratedJson.Default.BookArray, new PooledContentOptions { Pool = pool }))
        {
            Assert.True(content.Body.Span.SequenceEqual(expected));
            Assert.Equal(expected.Length, content.Headers.ContentLength);
        }

        Assert.Equal(1_000, Assert.Throws<BufferLimitExceededException>(() => PooledJsonContent.Create(Books, GeneratedJson.Default.BookArray, new() { Pool = pool, MaxBytes = 1_000 })).Limit);
        pool.AssertBalanced();
    }

    [Fact]
    public async Task Pooled_json_content_can_be_sent_twice_and_not_after_dispose()
    {
        var pool = new TrackingArrayPool();
        var content = PooledJsonContent.Create(Books[..10], options: null, pool: pool, maxBytes: int.MaxValue);
        for (int i = 0; i < 2; i++)
        {
            using var request = new HttpRequestMessage(HttpMethod.Post, fixture.Server.Url("sink")) { Content = content };
            using HttpResponseMessage response = await fixture.Client.SendAsync(request);
            Assert.Equal(content.Headers.ContentLength, long.Parse(await response.Content.ReadAsStringAsync(), CultureInfo.InvariantCulture));

            // Disposing a request disposes its content; detach it to send it again.
            request.Content = null;
        }

        Assert.Equal(1, pool.Outstanding);

        content.Dispose();
        Assert.Throws<ObjectDisposedException>(() => content.Body);
        pool.AssertBalanced();
    }

    [Fact]
    public void Pooled_json_content_over_the_limit_throws_and_returns_its_buffers()
    {
        var pool = new TrackingArrayPool();
        var error = Assert.Throws<BufferLimitExceededException>(() => PooledJsonContent.Create(Books, options: null, pool: pool, maxBytes: 10_000));
        Assert.Equal(10_000, error.Limit);
        Assert.True(pool.Rents > 0);
        pool.AssertBalanced();
    }

    [Fact]
    public void Pooled_json_content_bounds_what_it_rents_by_its_limit_not_only_what_it_keeps()
    {
        // Utf8JsonWriter asks for three bytes per char before it writes a string: 6,000,011 bytes for this one,
        // 92 times a 64 KiB limit, were rented before the limit refused the body.
        const int Limit = 64 * 1024;
        var pool = new TrackingArrayPool();
        Assert.Throws<BufferLimitExceededException>(() => PooledJsonContent.Create(new string('x', 2_000_000), options: null, pool: pool, maxBytes: Limit));
        Assert.True(pool.LargestRequest <= (3 * Limit) + 4096, $"rented up to {pool.LargestRequest:N0} bytes under a {Limit:N0}-byte limit");
        pool.AssertBalanced();

        // The bound refuses only what cannot fit: a string just under the limit still goes.
        using var fits = PooledJsonContent.Create(new string('y', Limit - 16), options: null, pool: pool, maxBytes: Limit);
        Assert.Equal(Limit - 14, fits.Headers.ContentLength);
    }

    [Fact]
    public async Task Recyclable_stream_content_sends_everything_whatever_the_stream_position()
    {
        byte[] expected = JsonSerializer.SerializeToUtf8Bytes(Books, PooledJson.Options);
        using var content = RecyclableStreamContent.CreateJson(Books);
        Assert.Equal(expected.Length, content.Headers.ContentLength);

        for (int i = 0; i < 2; i++)
        {
            using var request = new HttpRequestMessage(HttpMethod.Post, fixture.Server.Url("sink")) { Content = content };
            using HttpResponseMessage response = await fixture.Client.SendAsync(request, HttpCompletionOption.ResponseContentRead);
            Assert.Equal(expected.Length, long.Parse(await response.Content.ReadAsStringAsync(), CultureInfo.InvariantCulture));
            request.Content = null; // keep the content alive for the second send
        }

        Assert.Equal(expected, await content.ReadAsByteArrayAsync());
    }

    [Fact]
    public async Task Recyclable_stream_content_after_dispose_throws_and_dispose_is_idempotent()
    {
        var content = RecyclableStreamContent.CreateJson(Books[..3]);
        content.Dispose();
        content.Dispose();
        await Assert.ThrowsAsync<ObjectDisposedException>(() => content.CopyToAsync(Stream.Null));
    }

    [Theory]
    [InlineData("application/x-protobuf")]
    [InlineData("application/octet-stream")]
    [InlineData("image/png")]
    public void Recyclable_stream_content_sends_a_binary_media_type_without_a_charset(string mediaType)
    {
        using var content = new RecyclableStreamContent(RecyclableStreams.Manager.GetStream(), mediaType);
        Assert.Equal(mediaType, content.Headers.ContentType?.ToString());
    }

    [Fact]
    public void Recyclable_stream_content_sends_the_content_type_it_is_given_and_json_with_utf_8()
    {
        using var text = new RecyclableStreamContent(RecyclableStreams.Manager.GetStream(), new MediaTypeHeaderValue("text/plain") { CharSet = "utf-16" });
        Assert.Equal("text/plain; charset=utf-16", text.Headers.ContentType?.ToString());

        using var untyped = new RecyclableStreamContent(RecyclableStreams.Manager.GetStream());
        Assert.Null(untyped.Headers.ContentType);

        using var json = RecyclableStreamContent.CreateJson(Books[..3]);
        Assert.Equal("application/json; charset=utf-8", json.Headers.ContentType?.ToString());
    }

    [Fact]
    public void The_shared_stream_manager_keeps_at_most_80_MiB_of_free_buffers_in_all()
    {
        // RecyclableMemoryStream limits its large pool per buffer size, not in all. Hand back more large buffers of
        // each size than a 16 MiB limit keeps, up to 16 MiB, and 25 MiB of small blocks, to a manager with the
        // shared one's settings, and add up what it keeps.
        const int MiB = 1024 * 1024;
        var manager = new RecyclableMemoryStreamManager(RecyclableStreams.Manager.Settings);
        var streams = new List<RecyclableMemoryStream>();
        foreach (int size in new[] { 1, 2, 3, 4, 8, 16 })
        {
            for (int i = 0; i <= 16 / size; i++)
            {
                streams.Add(manager.GetStream("large", size * MiB, asContiguousBuffer: true));
            }
        }

        RecyclableMemoryStream blocks = manager.GetStream("small");
        blocks.Write(new byte[25 * MiB]);
        streams.Add(blocks);
        streams.ForEach(stream => stream.Dispose());

        Assert.True(manager.LargePoolFreeSize <= 64 * MiB, $"{manager.LargePoolFreeSize:N0} bytes of free large buffers kept");
        Assert.True(manager.SmallPoolFreeSize <= 16 * MiB, $"{manager.SmallPoolFreeSize:N0} bytes of free blocks kept");
        Assert.True(manager.LargePoolFreeSize > 0 && manager.SmallPoolFreeSize > 0, "nothing was kept: the test could not fail");
    }
}

/// <summary>Source-generated metadata for the books, as a trimmed service would declare it.</summary>
[System.Text.Json.Serialization.JsonSourceGenerationOptions(System.Text.Json.JsonSerializerDefaults.Web)]
[System.Text.Json.Serialization.JsonSerializable(typeof(Book[]))]
internal sealed partial class GeneratedJson : System.Text.Json.Serialization.JsonSerializerContext;
