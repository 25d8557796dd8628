using System.Text.Json;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Exercises;

/// <summary>Exercise 03, worked: the body streams from the connection into the deserializer, one book at a time.</summary>
public static class E03_StreamTheBooks
{
    private static readonly JsonSerializerOptions Web = new(JsonSerializerDefaults.Web);

    /// <summary>Counts the books at <paramref name="url"/> without buffering the body or holding the array.</summary>
    public static async Task<int> CountAsync(HttpClient client, Uri url, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(client);
        using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead, cancellationToken).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        await using Stream body = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
        int count = 0;
        await foreach (Book? book in JsonSerializer.DeserializeAsyncEnumerable<Book>(body, Web, cancellationToken).ConfigureAwait(false))
        {
            count += book is null ? 0 : 1;
        }

        return count;
    }
}
