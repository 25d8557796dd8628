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
    public Task<long> Baseline()
        => PostAsync(new StringContent(Newtonsoft.Json.JsonConvert.SerializeObject(_books), Encoding.UTF8, MediaTypeNames.Application.Json));

    /// <summary>System.Text.Json to a string, sent as <see cref="StringContent"/>.</summary>
    [Benchmark]
    public Task<long> SystemTextJson()
        => PostAsync(new StringContent(JsonSerializer.Serialize(_books, PooledJson.Options), Encoding.UTF8, MediaTypeNames.Application.Json));

    /// <summary>
    /// <see cref="Utf8JsonWriter"/> over CommunityToolkit's pooled <c>ArrayPoolBufferWriter</c>, sent as
    /// <see cref="ReadOnlyMemoryContent"/>. The writer is disposed only after the send completes.
    /// </summary>
    [Benchmark]
    public async Task<long> SystemTextJson_ReadOnlyMemoryContent()
    {
        using var buffer = JsonBodies.ToBufferWriter(_books);
        return await PostAsync(JsonBodies.AsJson(new ReadOnlyMemoryContent(buffer.WrittenMemory))).ConfigureAwait(false);
    }

    /// <summary>Serialized into a <see cref="RecyclableMemoryStream"/>, rewound, sent as <see cref="StreamContent"/>.</summary>
    [Benchmark]
    public async Task<long> RecyclableStreamAndStreamContent()
    {
        using RecyclableMemoryStream stream = JsonBodies.ToRecyclableStream(_books);
        return await PostAsync(JsonBodies.AsJson(new StreamContent(stream))).ConfigureAwait(false);
    }

    /// <summary><see cref="JsonContent"/>: serializes while sending, chunked, with no Content-Length.</summary>
    [Benchmark]
    public Task<long> JsonContent() => PostAsync(System.Net.Http.Json.JsonContent.Create(_books, options: PooledJson.Options));

    /// <summary><c>PostAsJsonAsync</c>: <see cref="System.Net.Http.Json.JsonContent"/> plus a buffered response.</summary>
    [Benchmark]
    public async Task<long> PostAsJsonAsync()
    {
        using HttpResponseMessage response = await Client.PostAsJsonAsync(_sink, _books, PooledJson.Options).ConfigureAwait(false);
        return await JsonBodies.ReadCountAsync(response).ConfigureAwait(false);
    }

    /// <summary>The helpers' <see cref="PooledJsonContent"/>: serialized once into a pooled array, sent with a Content-Length.</summary>
    [Benchmark]
    public Task<long> PooledJsonContent() => PostAsync(Content.PooledJsonContent.Create(_books));

    /// <summary>S2's binary row: the same books as protobuf, with protobuf-net, into the pooled buffer writer, sent as <see cref="ReadOnlyMemoryContent"/>.</summary>
    [Benchmark]
    public async Task<long> Protobuf_ReadOnlyMemoryContent()
    {
        using var buffer = new ArrayPoolBufferWriter<byte>();
        BookMessages.Write(buffer, _books);
        return await PostAsync(BookMessages.AsProtobuf(new ReadOnlyMemoryContent(buffer.WrittenMemory))).ConfigureAwait(false);
    }

    /// <summary>S2's other binary row: protobuf-net into a <see cref="RecyclableMemoryStream"/>, rewound, sent as <see cref="StreamContent"/>.</summary>
    [Benchmark]
    public async Task<long> Protobuf_RecyclableStreamAndStreamContent()
    {
        using RecyclableMemoryStream stream = RecyclableStreams.Manager.GetStream();
        BookMessages.Write((Stream)stream, _books); // it is an IBufferWriter too: write as a stream, as the JSON row does
        stream.Position = 0;
        return await PostAsync(BookMessages.AsProtobuf(new StreamContent(stream))).ConfigureAwait(false);
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

    private Task<long> PostAsync(HttpContent content) => JsonBodies.PostAsync(Client, _sink, content);
}
