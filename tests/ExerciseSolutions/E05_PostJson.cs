using System.Net.Http.Headers;
using System.Text.Json;
using CommunityToolkit.HighPerformance.Buffers;
using PooledHttp.Buffers;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Exercises;

/// <summary>Exercise 05, worked: JSON written into pooled memory, sent as a content of known length.</summary>
public static class E05_PostJson
{
    private static readonly JsonSerializerOptions Web = new(JsonSerializerDefaults.Web);

    /// <summary>Posts <paramref name="books"/> as JSON with a Content-Length; returns the sink's count.</summary>
    public static async Task<long> PostAsync(HttpClient client, Uri url, Book[] books, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(client);
        // The writer rents from the library's body pool and returns it on dispose, which must wait for the send.
        // Not ArrayPool<byte>.Shared: it caches per thread and per core, and a POST returns its buffer on whichever
        // thread resumed it, so now and then a 2 MB rent finds nothing and allocates; measured at 208 KiB per POST
        // in one of three default-profile runs (the goal is 8 KiB). BodyPool.Shared keeps what it is given.
        using var buffer = new ArrayPoolBufferWriter<byte>(BodyPool.Shared);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            JsonSerializer.Serialize(writer, books, Web);
        }

        using var content = new ReadOnlyMemoryContent(buffer.WrittenMemory); // its length is known: a Content-Length, not chunked
        content.Headers.ContentType = new MediaTypeHeaderValue("application/json") { CharSet = "utf-8" };
        using HttpResponseMessage response = await client.PostAsync(url, content, cancellationToken).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        return long.Parse(await response.Content.ReadAsStringAsync(cancellationToken).ConfigureAwait(false), System.Globalization.CultureInfo.InvariantCulture);
    }
}
