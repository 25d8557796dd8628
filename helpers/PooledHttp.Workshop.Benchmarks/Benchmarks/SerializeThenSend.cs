using BenchmarkDotNet.Attributes;
using CommunityToolkit.HighPerformance.Buffers;
using Microsoft.IO;
using PooledHttp.Workshop.Server;
using static PooledHttp.Workshop.Benchmarks.JsonBodies; // as chapter 05's cells call them

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 05's section 5: S2's two pooled bodies at about 2 MB, each measured twice, serializing only
/// and serializing then POSTing, so the difference is the send. Run with
/// <see cref="MeasurementProfile.CurrentTimingJob"/>: these rows are compared by time, and
/// three iterations leave an error larger than the differences.
/// </summary>
public class SerializeThenSend : DownloadBenchmark
{
    private Book[] _books = null!;
    private Uri _sink = null!;

    /// <summary>The approximate size of the serialized JSON in bytes: S2's large payload.</summary>
    [Params(2_000_000)]
    public int Size { get; set; }

    /// <summary>Serialize into the buffer writer, then drop it.</summary>
    [Benchmark]
    public int Serialize_BufferWriter() => SerializeToBufferWriter(_books);

    /// <summary>Serialize into the recyclable stream, then drop it.</summary>
    [Benchmark]
    public long Serialize_RecyclableStream() => SerializeToRecyclableStream(_books);

    /// <summary>Serialize into the buffer writer and POST it as <see cref="ReadOnlyMemoryContent"/>.</summary>
    [Benchmark]
    public Task<long> Post_BufferWriter() => RequestBodies.PostBufferWriterAsync(Client, _sink, _books);

    /// <summary>Serialize into the recyclable stream and POST it as <see cref="StreamContent"/>.</summary>
    [Benchmark]
    public Task<long> Post_RecyclableStream() => RequestBodies.PostRecyclableStreamAsync(Client, _sink, _books);

    /// <summary>The serializing half of <see cref="RequestBodies.PostBufferWriterAsync"/>.</summary>
    /// <returns>The JSON's length.</returns>
    public static int SerializeToBufferWriter(Book[] books)
    {
        using ArrayPoolBufferWriter<byte> buffer = ToBufferWriter(books);
        return buffer.WrittenCount;
    }

    /// <summary>The serializing half of <see cref="RequestBodies.PostRecyclableStreamAsync"/>.</summary>
    /// <returns>The JSON's length.</returns>
    public static long SerializeToRecyclableStream(Book[] books)
    {
        using RecyclableMemoryStream stream = ToRecyclableStream(books);
        return stream.Length;
    }

    /// <inheritdoc />
    protected override void Prepare()
    {
        _sink = new Uri(BenchmarkServer.Address, "/sink");
        _books = Book.Catalogue(RequestBodies.BooksFor(Size));
    }
}
