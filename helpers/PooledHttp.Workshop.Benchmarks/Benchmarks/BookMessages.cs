using System.Buffers;
using PooledHttp.Workshop.Server;
using ProtoBuf;
using ProtoBuf.Meta;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// The catalogue's books as protobuf, with protobuf-net (S2's library): an array of <see cref="Book"/> is a
/// message whose field 1 repeats each book, so a body decodes with any protobuf library given that shape.
/// </summary>
public static class BookMessages
{
    /// <summary>The content type chapter 05's binary bodies are sent with.</summary>
    public const string ContentType = "application/x-protobuf";

    /// <summary>
    /// <see cref="Book"/>'s protobuf shape, as S2's attributes would declare it: fields 1 to 4, set without a
    /// constructor (a positional record has no empty one). Declared here because <see cref="Book"/> lives in
    /// the server's assembly, which knows nothing of protobuf.
    /// </summary>
    static BookMessages()
    {
        MetaType book = RuntimeTypeModel.Default.Add(typeof(Book), applyDefaultBehaviour: false);
        book.Add(1, nameof(Book.Id)).Add(2, nameof(Book.Title)).Add(3, nameof(Book.Author)).Add(4, nameof(Book.Isbn));
        book.UseConstructor = false;
    }

    /// <summary>Writes <paramref name="books"/> as protobuf into <paramref name="destination"/>.</summary>
    public static void Write(IBufferWriter<byte> destination, Book[] books) => Serializer.Serialize(destination, books);

    /// <summary>Writes <paramref name="books"/> as protobuf into <paramref name="destination"/>.</summary>
    public static void Write(Stream destination, Book[] books) => Serializer.Serialize(destination, books);

    /// <summary>The books a protobuf body holds, to check what went over the wire.</summary>
    internal static Book[] Read(ReadOnlySpan<byte> body) => Serializer.Deserialize<Book[]>(body);

    /// <summary><paramref name="content"/> labelled as protobuf.</summary>
    public static HttpContent AsProtobuf(HttpContent content)
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
