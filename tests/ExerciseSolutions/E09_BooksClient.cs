using System.Text.Json;
using PooledHttp.Buffers;
using PooledHttp.Content;
using PooledHttp.Http;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Exercises;

/// <summary>Exercise 09, worked: the typed client's books come from the pooled read, deserialized from the lease.</summary>
/// <param name="http">The client the factory made for this instance.</param>
public sealed class E09_BooksClient(HttpClient http)
{
    /// <summary>The books at <paramref name="url"/>; the lease goes back to the pool before this returns.</summary>
    public async Task<Book[]> GetBooksAsync(Uri url, CancellationToken cancellationToken)
    {
        using PooledBuffer body = await http.GetPooledAsync(url, cancellationToken: cancellationToken).ConfigureAwait(false);
        return JsonSerializer.Deserialize<Book[]>(body.Span, PooledJson.Options)
            ?? throw new JsonException("The books API returned null.");
    }
}
