using Google.Protobuf;
using PooledHttp.Benchmarks.Protobuf;
using PooledHttp.Server;

namespace PooledHttp.Benchmarks;

/// <summary>
/// The catalogue's books as the protobuf message protoc generates from <c>books.proto</c>. An application
/// that sends protobuf holds its data in these classes, so the benchmarks convert once, before measuring.
/// </summary>
public static class BookMessages
{
    /// <summary>The content type chapter 05's binary bodies are sent with.</summary>
    public const string ContentType = "application/x-protobuf";

    /// <summary><paramref name="books"/> as one <see cref="BookList"/>, in order.</summary>
    internal static BookList From(IEnumerable<Book> books)
    {
        var list = new BookList();
        list.Books.AddRange(books.Select(b => new BookMessage { Id = b.Id, Title = b.Title, Author = b.Author, Isbn = b.Isbn }));
        return list;
    }

    /// <summary>The books a protobuf body holds, to check what went over the wire.</summary>
    internal static Book[] Read(ReadOnlySpan<byte> body)
        => [.. BookList.Parser.ParseFrom(body).Books.Select(m => new Book(m.Id, m.Title, m.Author, m.Isbn))];

    /// <summary><paramref name="content"/> labelled as protobuf.</summary>
    internal static HttpContent AsProtobuf(HttpContent content)
    {
        content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue(ContentType);
        return content;
    }

    /// <summary>How many bytes <paramref name="books"/> take as protobuf: what chapter 05's binary rows send.</summary>
    public static int SizeOf(IEnumerable<Book> books) => From(books).CalculateSize();
}
