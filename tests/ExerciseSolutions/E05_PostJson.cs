using System.Net.Http.Headers;
using System.Text.Json;
using CommunityToolkit.HighPerformance.Buffers;
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
        // The writer rents from the shared pool and returns it on dispose, which must wait for the send.
        using var buffer = new ArrayPoolBufferWriter<byte>();
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
