using System.Net.Http.Json;
using System.Text.Json;
using PooledHttp.Buffers;
using PooledHttp.Content;
using PooledHttp.Http;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 09, section 4: the books deserialized where the bytes already are. Three ways from the wire, and
/// the baseline that has no wire at all: the same JSON deserialized from an array already in memory, which
/// costs the objects and the parser's own state and nothing of HTTP.
/// </summary>
public static class BookJson
{
    /// <summary>The baseline: the books from JSON already in memory.</summary>
    /// <returns>How many books came back.</returns>
    public static int FromMemory(byte[] json)
    {
        Book[] books = JsonSerializer.Deserialize<Book[]>(json, PooledJson.Options)
            ?? throw new JsonException("The JSON held null.");
        return books.Length;
    }

    /// <summary>The pooled read, then the books straight from the lease's span; the lease goes back before the method returns.</summary>
    /// <returns>How many books came back.</returns>
    public static async Task<int> FromLeaseAsync(HttpClient client, Uri url)
    {
        using PooledBuffer body = await client.GetPooledAsync(url).ConfigureAwait(false);
        Book[] books = JsonSerializer.Deserialize<Book[]>(body.Span, PooledJson.Options)
            ?? throw new JsonException("The books API returned null.");
        return books.Length;
    }

    /// <summary><c>GetAsync</c> (the body buffered by the default completion option), then <c>ReadFromJsonAsync</c>.</summary>
    /// <returns>How many books came back.</returns>
    public static async Task<int> ReadFromJsonAsync(HttpClient client, Uri url)
    {
        using HttpResponseMessage response = await client.GetAsync(url).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        Book[] books = await response.Content.ReadFromJsonAsync<Book[]>(PooledJson.Options).ConfigureAwait(false)
            ?? throw new JsonException("The books API returned null.");
        return books.Length;
    }
}
