using BenchmarkDotNet.Attributes;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 05's section 5: S2's two pooled bodies at about 2 MB, each measured twice, serializing only
/// and serializing then POSTing, so the difference is the send. Run with
/// <see cref="Measuring.MeasurementProfile.CurrentTimingJob"/>: these rows are compared by time, and
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
    public int Serialize_BufferWriter()
    {
        using var buffer = JsonBodies.ToBufferWriter(_books);
        return buffer.WrittenCount;
    }

    /// <summary>Serialize into the recyclable stream, then drop it.</summary>
    [Benchmark]
    public long Serialize_RecyclableStream()
    {
        using var stream = JsonBodies.ToRecyclableStream(_books);
        return stream.Length;
    }

    /// <summary>Serialize into the buffer writer and POST it as <see cref="ReadOnlyMemoryContent"/>.</summary>
    [Benchmark]
    public async Task<long> Post_BufferWriter()
    {
        using var buffer = JsonBodies.ToBufferWriter(_books);
        return await JsonBodies.PostAsync(Client, _sink, JsonBodies.AsJson(new ReadOnlyMemoryContent(buffer.WrittenMemory))).ConfigureAwait(false);
    }

    /// <summary>Serialize into the recyclable stream and POST it as <see cref="StreamContent"/>.</summary>
    [Benchmark]
    public async Task<long> Post_RecyclableStream()
    {
        using var stream = JsonBodies.ToRecyclableStream(_books);
        return await JsonBodies.PostAsync(Client, _sink, JsonBodies.AsJson(new StreamContent(stream))).ConfigureAwait(false);
    }

    /// <inheritdoc />
    protected override void Prepare()
    {
        _sink = new Uri(BenchmarkServer.Address, "/sink");
        _books = Book.Catalogue(RequestBodies.BooksFor(Size));
    }
}
