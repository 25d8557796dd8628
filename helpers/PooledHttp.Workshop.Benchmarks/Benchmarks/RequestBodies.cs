using System.Net.Http.Json;
using System.Net.Http.Headers;
using System.Net.Mime;
using System.Text;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using CommunityToolkit.HighPerformance.Buffers;
using Microsoft.IO;
using PooledHttp.Content;
using PooledHttp.Workshop.Server;
using static PooledHttp.Workshop.Benchmarks.JsonBodies; // the cells of chapter 05 show these helpers beside the strategies that call them

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 05, after S2: one object POSTed to the local sink, as JSON seven ways and as protobuf (protobuf-net) two, at about
/// 70 KB and about 2 MB of JSON (decimal: 70,000 and 2,000,000 bytes). <see cref="SerializeThenSend"/>
/// splits two of them into serializing and sending.
/// </summary>
public class RequestBodies : DownloadBenchmark
{
    private Book[] _books = null!;
    private Uri _sink = null!;

    /// <summary>The approximate size of the serialized JSON in bytes, one of <see cref="Sizes"/>.</summary>
    [ParamsSource(nameof(Sizes))]
    public int Size { get; set; }

    /// <summary>The sizes to measure: <see cref="SizesToMeasure"/>, read by BenchmarkDotNet on an instance of the class it runs.</summary>
    public IEnumerable<int> Sizes => SizesToMeasure();

    /// <summary>S2's small and large payloads. A derived class can measure fewer (BenchmarkDotNet wants one member named <c>Sizes</c>, so the override goes here).</summary>
    protected virtual IEnumerable<int> SizesToMeasure() => [70_000, 2_000_000];

    /// <summary>S2's baseline: Newtonsoft.Json to a string, sent as <see cref="StringContent"/>.</summary>
    [Benchmark(Baseline = true)]
    public Task<long> Baseline() => PostNewtonsoftStringAsync(Client, _sink, _books);

    /// <summary>System.Text.Json to a string, sent as <see cref="StringContent"/>.</summary>
    [Benchmark]
    public Task<long> SystemTextJson() => PostStringAsync(Client, _sink, _books);

    /// <summary><see cref="Utf8JsonWriter"/> over CommunityToolkit's pooled <c>ArrayPoolBufferWriter</c>, sent as <see cref="ReadOnlyMemoryContent"/>.</summary>
    [Benchmark]
    public Task<long> SystemTextJson_ReadOnlyMemoryContent() => PostBufferWriterAsync(Client, _sink, _books);

    /// <summary>Serialized into a <see cref="RecyclableMemoryStream"/>, rewound, sent as <see cref="StreamContent"/>.</summary>
    [Benchmark]
    public Task<long> RecyclableStreamAndStreamContent() => PostRecyclableStreamAsync(Client, _sink, _books);

    /// <summary><see cref="System.Net.Http.Json.JsonContent"/>: serializes while sending, chunked, with no Content-Length.</summary>
    [Benchmark]
    public Task<long> JsonContent() => PostJsonContentAsync(Client, _sink, _books);

    /// <summary><c>PostAsJsonAsync</c>: <see cref="System.Net.Http.Json.JsonContent"/> plus a buffered response.</summary>
    [Benchmark]
    public Task<long> PostAsJsonAsync() => PostWithPostAsJsonAsync(Client, _sink, _books);

    /// <summary>The helpers' <see cref="Content.PooledJsonContent"/>: serialized once into a pooled array, sent with a Content-Length.</summary>
    [Benchmark]
    public Task<long> PooledJsonContent() => PostPooledJsonContentAsync(Client, _sink, _books);

    /// <summary>S2's binary row: the same books as protobuf, with protobuf-net, into the pooled buffer writer, sent as <see cref="ReadOnlyMemoryContent"/>.</summary>
    [Benchmark]
    public Task<long> Protobuf_ReadOnlyMemoryContent() => PostProtobufBufferWriterAsync(Client, _sink, _books);

    /// <summary>S2's other binary row: protobuf-net into a <see cref="RecyclableMemoryStream"/>, rewound, sent as <see cref="StreamContent"/>.</summary>
    [Benchmark]
    public Task<long> Protobuf_RecyclableStreamAndStreamContent() => PostProtobufRecyclableStreamAsync(Client, _sink, _books);

    /// <summary>Newtonsoft.Json to a string, sent as <see cref="StringContent"/>, which encodes it to UTF-8 again.</summary>
    /// <returns>The bytes the sink received.</returns>
    public static Task<long> PostNewtonsoftStringAsync(HttpClient client, Uri sink, Book[] books)
    {
        string json = Newtonsoft.Json.JsonConvert.SerializeObject(books);
        return PostAsync(client, sink, new StringContent(json, Encoding.UTF8, MediaTypeNames.Application.Json));
    }

    /// <summary>System.Text.Json to a string, sent as <see cref="StringContent"/>.</summary>
    /// <returns>The bytes the sink received.</returns>
    public static Task<long> PostStringAsync(HttpClient client, Uri sink, Book[] books)
    {
        string json = JsonSerializer.Serialize(books, PooledJson.Options);
        return PostAsync(client, sink, new StringContent(json, Encoding.UTF8, MediaTypeNames.Application.Json));
    }

    /// <summary>UTF-8 JSON into a pooled <c>ArrayPoolBufferWriter</c>, sent as <see cref="ReadOnlyMemoryContent"/>; the writer is disposed only after the send completes.</summary>
    /// <returns>The bytes the sink received.</returns>
    public static async Task<long> PostBufferWriterAsync(HttpClient client, Uri sink, Book[] books)
    {
        using ArrayPoolBufferWriter<byte> buffer = ToBufferWriter(books);
        return await PostAsync(client, sink, AsJson(new ReadOnlyMemoryContent(buffer.WrittenMemory))).ConfigureAwait(false);
    }

    /// <summary>UTF-8 JSON into a <see cref="RecyclableMemoryStream"/>, rewound, sent as <see cref="StreamContent"/>.</summary>
    /// <returns>The bytes the sink received.</returns>
    public static async Task<long> PostRecyclableStreamAsync(HttpClient client, Uri sink, Book[] books)
    {
        using RecyclableMemoryStream stream = ToRecyclableStream(books);
        return await PostAsync(client, sink, AsJson(new StreamContent(stream))).ConfigureAwait(false);
    }

    /// <summary><c>JsonContent</c>: serialized into the connection while it is sent, chunked.</summary>
    /// <returns>The bytes the sink received.</returns>
    public static Task<long> PostJsonContentAsync(HttpClient client, Uri sink, Book[] books)
        => PostAsync(client, sink, System.Net.Http.Json.JsonContent.Create(books, options: PooledJson.Options));

    /// <summary><c>PostAsJsonAsync</c>: <c>JsonContent</c>, and the response buffered by the default completion option.</summary>
    /// <returns>The bytes the sink received.</returns>
    public static async Task<long> PostWithPostAsJsonAsync(HttpClient client, Uri sink, Book[] books)
    {
        ArgumentNullException.ThrowIfNull(client);
        using HttpResponseMessage response = await client.PostAsJsonAsync(sink, books, PooledJson.Options).ConfigureAwait(false);
        return await ReadCountAsync(response).ConfigureAwait(false);
    }

    /// <summary>The helpers' <c>PooledJsonContent</c>: UTF-8 JSON in one pooled array it owns, sent with a Content-Length.</summary>
    /// <returns>The bytes the sink received.</returns>
    public static Task<long> PostPooledJsonContentAsync(HttpClient client, Uri sink, Book[] books)
        => PostAsync(client, sink, PooledHttp.Content.PooledJsonContent.Create(books));

    /// <summary>protobuf-net into the pooled buffer writer, sent as <see cref="ReadOnlyMemoryContent"/>.</summary>
    /// <returns>The bytes the sink received.</returns>
    public static async Task<long> PostProtobufBufferWriterAsync(HttpClient client, Uri sink, Book[] books)
    {
        using var buffer = new ArrayPoolBufferWriter<byte>();
        BookMessages.Write(buffer, books);
        return await PostAsync(client, sink, BookMessages.AsProtobuf(new ReadOnlyMemoryContent(buffer.WrittenMemory))).ConfigureAwait(false);
    }

    /// <summary>protobuf-net into a <see cref="RecyclableMemoryStream"/>, written as a stream (as the JSON row does), rewound, sent as <see cref="StreamContent"/>.</summary>
    /// <returns>The bytes the sink received.</returns>
    public static async Task<long> PostProtobufRecyclableStreamAsync(HttpClient client, Uri sink, Book[] books)
    {
        using RecyclableMemoryStream stream = RecyclableStreams.Manager.GetStream();
        BookMessages.Write((Stream)stream, books);
        stream.Position = 0;
        return await PostAsync(client, sink, BookMessages.AsProtobuf(new StreamContent(stream))).ConfigureAwait(false);
    }

    /// <inheritdoc />
    protected override void Prepare()
    {
        _sink = new Uri(BenchmarkServer.Address, "/sink");
        _books = Book.Catalogue(BooksFor(Size));
    }

    /// <summary>How many catalogue books serialize to about <paramref name="jsonBytes"/> bytes.</summary>
    public static int BooksFor(int jsonBytes)
    {
        const int Sample = 1000;
        int perBook = JsonSerializer.SerializeToUtf8Bytes(Book.Catalogue(Sample), PooledJson.Options).Length / Sample;
        return Math.Max(1, jsonBytes / perBook);
    }
}
