using PooledHttp.Workshop.Server;
using ProtoBuf;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// The catalogue's books as protobuf, with protobuf-net (S2's library): an array of <see cref="Book"/> is a
/// message whose field 1 repeats each book, so a body decodes with any protobuf library given that shape.
/// </summary>
public static class BookMessages
{
    /// <summary>The content type chapter 05's binary bodies are sent with.</summary>
    public const string ContentType = "application/x-protobuf";

    /// <summary>The books a protobuf body holds, to check what went over the wire.</summary>
    internal static Book[] Read(ReadOnlySpan<byte> body) => Serializer.Deserialize<Book[]>(body);

    /// <summary><paramref name="content"/> labelled as protobuf.</summary>
    internal static HttpContent AsProtobuf(HttpContent content)
    {
        content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue(ContentType);
        return content;
    }

    /// <summary>How many bytes <paramref name="books"/> take as protobuf: what chapter 05's binary rows send.</summary>
    public static int SizeOf(Book[] books)
    {
        using MeasureState<Book[]> measured = Serializer.Measure(books);
        return checked((int)measured.Length);
    }
}
