using System.Collections.Concurrent;
using System.Text.Json;
using PooledHttp.Content;

namespace PooledHttp.Workshop.Server;

/// <summary>
/// A book, as in the books API of "Using HttpCompletionOption to Improve HttpClient Performance in .NET": four
/// strings. Chapter 05 also sends books as protobuf with protobuf-net, as S2 did: fields 1 to 4, in order
/// (declared where the benchmarks serialize them, <c>BookMessages</c>).
/// </summary>
/// <param name="Id">A stable identifier.</param>
/// <param name="Title">The title.</param>
/// <param name="Author">The author.</param>
/// <param name="Isbn">An ISBN-like code.</param>
public sealed record Book(string Id, string Title, string Author, string Isbn)
{
    private static readonly string[] Adjectives = ["Pooled", "Chunked", "Buffered", "Streaming", "Generational", "Large", "Pinned", "Async"];
    private static readonly string[] Nouns = ["Arrays", "Sockets", "Heaps", "Headers", "Bodies", "Handlers", "Segments", "Spans"];
    private static readonly string[] Authors = ["A. Lovelace", "G. Hopper", "B. Liskov", "E. Dijkstra", "D. Knuth", "F. Allen", "K. Thompson"];
    private static readonly ConcurrentDictionary<int, byte[]> JsonCache = new();

    /// <summary>The first <paramref name="count"/> books of a fixed, deterministic catalogue.</summary>
    public static Book[] Catalogue(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        var books = new Book[count];
        for (int i = 0; i < count; i++)
        {
            books[i] = new Book(
                Id: $"book-{i:D5}",
                Title: $"{Adjectives[i % Adjectives.Length]} {Nouns[i / Adjectives.Length % Nouns.Length]}, volume {i + 1}",
                Author: Authors[i % Authors.Length],
                Isbn: $"978-0-{i * 7919 % 100000:D5}-{i % 97:D2}-{i % 10}");
        }

        return books;
    }

    /// <summary>The catalogue of <paramref name="count"/> books as UTF-8 JSON, built once per count.</summary>
    public static byte[] CatalogueJson(int count) => JsonCache.GetOrAdd(count, static n => JsonSerializer.SerializeToUtf8Bytes(Catalogue(n), PooledJson.Options));
}
