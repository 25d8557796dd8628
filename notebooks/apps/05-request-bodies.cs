// Chapter 05-request-bodies as a .NET file-based app, written from notebooks/05-request-bodies.ipynb by `dotnet run --project tools/Publish/GenerateApps`.
// To change the chapter itself, edit the notebook and run that command again (a test fails while the two differ).
// Your own lines are yours to edit here: a guess the text asks for, a value to try.
//
// Run it from anywhere in the clone:  dotnet run notebooks/apps/05-request-bodies.cs          (the quick profile: add -- --quick)
// It builds in Release, as the runner builds the kit (notebooks/apps/Directory.Build.props says how), and runs the
// notebook's code cells in order; each starts at its Cell(n) line, n as the notebook and the runner count cells.
// Where the text below says "cell", read the code under a Cell(n) line; to run a cell again, run the app again.
// display(...) prints tables as text and writes each chart as a page of its own, whose path it prints.
// docs/apps.md: debugging it, and what it does not do.
#:project ../../helpers/PooledHttp.Workshop.Exercising/PooledHttp.Workshop.Exercising.csproj

// The kernel's imports, then the cells' own.
using System;
using System.Text;
using System.Collections;
using System.Collections.Generic;
using System.Threading.Tasks;
using System.Linq;
using System.IO;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json;
using System.Net.Mime;
using CommunityToolkit.HighPerformance.Buffers;
using Microsoft.IO;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Charts;
using PooledHttp.Content;
using PooledHttp.Workshop.Exercising;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;
using static PooledHttp.Workshop.Notebooks.ChapterApp; // display(...), HTML(...), Start, Cell

Start("05-request-bodies", args);

// # 05 · Request bodies without the garbage
//
// **What you will learn**
// - what building a JSON request body costs, seven ways, from Newtonsoft to a string to the helpers'
//   pooled content, at about 70 KB and 2 MB, beside S2's figures;
// - why serializing to a string is the expensive habit, and what `JsonContent` does differently;
// - what the source says about S2's open question (each path copies the body about once), and what a
//   run measures.
//
// This chapter retells S2, [How to improve memory allocation when creating
// HttpContent](https://hashnode.devindran.com/how-to-improve-memory-allocation-when-creating-httpcontent)
// by Devindran Ramadass; [the reference run](../../data/results/reference/MACHINE.md) lists how long each chapter took.

// ## 1 · Set up

// Cell 3, the notebook's setup (#load "workshop.csx" builds the kit into artifacts/notebook-bin): the #:project line at the top does it here.

// Cell 4, the notebook's setup (#load "kit.csx" references the kit): the #:project line at the top does it here.

// ## 2 · Predict first
//
// Section 4 measures nine ways to POST about 2 MB of JSON (or the same books as protobuf). Before any
// figure: how many bytes does the usual habit, Newtonsoft.Json to a `string` sent as `StringContent`,
// allocate per POST? And the exercise: your pooled POST of the same books, how many bytes?

Cell(6);
long stringGuess = 0; // bytes per POST, Newtonsoft to a string, about 2 MB of JSON
long bytesGuess = 0;  // bytes per POST of your pooled JSON (the exercise)

// ## 3 · The payload and the sink
//
// S2 posted to httpbin.org; this chapter posts to the local server's `POST /sink`, which reads the
// body and answers with the number of bytes it received (each benchmark checks that answer). The
// object is a list of books, sized to serialize to about 70 KB and about 2 MB.

Cell(8);
var server = LocalServer.Start();
var http = new HttpClient();

foreach (int size in new[] { 70_000, 2_000_000 })
{
    Book[] books = Book.Catalogue(RequestBodies.BooksFor(size));
    using var content = PooledJsonContent.Create(books);
    using HttpResponseMessage response = await http.PostAsync(server.Url("/sink"), content);
    Console.WriteLine($"{books.Length,6:N0} books serialize to {content.Body.Length,9:N0} bytes of JSON (the sink received {await response.Content.ReadAsStringAsync()}), {BookMessages.SizeOf(books),9:N0} bytes of protobuf");
}

// ## 4 · Nine ways to send the books
//
// `RequestBodies` (in `helpers/PooledHttp.Workshop.Benchmarks/Benchmarks`) builds the body each way and
// POSTs it to the sink. Each benchmark calls one of the methods below; the cells hold the same code and
// run each once. First what they share: the POST, the sink's answer, and the two pooled ways of
// writing JSON that S2 compared.

Cell(10);
// Measured as JsonBodies.PostAsync
static async Task<long> PostAsync(HttpClient client, Uri sink, HttpContent content)
{
    using var request = new HttpRequestMessage(HttpMethod.Post, sink) { Content = content };
    using HttpResponseMessage response = await client.SendAsync(request);
    return await ReadCountAsync(response);
}

// Measured as JsonBodies.ReadCountAsync
static async Task<long> ReadCountAsync(HttpResponseMessage response)
{
    response.EnsureSuccessStatusCode();
    return long.Parse(await response.Content.ReadAsStringAsync(), System.Globalization.CultureInfo.InvariantCulture);
}

// Measured as JsonBodies.AsJson
static HttpContent AsJson(HttpContent content)
{
    content.Headers.ContentType = new MediaTypeHeaderValue(MediaTypeNames.Application.Json) { CharSet = "utf-8" };
    return content;
}

// Measured as JsonBodies.ToBufferWriter
static ArrayPoolBufferWriter<byte> ToBufferWriter(Book[] books)
{
    var buffer = new ArrayPoolBufferWriter<byte>();
    using (var writer = new Utf8JsonWriter(buffer))
    {
        JsonSerializer.Serialize(writer, books, PooledJson.Options);
    }

    return buffer;
}

// Measured as JsonBodies.ToRecyclableStream
static RecyclableMemoryStream ToRecyclableStream(Book[] books)
{
    RecyclableMemoryStream stream = RecyclableStreams.Manager.GetStream();
    JsonSerializer.Serialize(stream, books, PooledJson.Options);
    stream.Position = 0;
    return stream;
}

// Two habits that go through a `string`: the text is built first, then `StringContent` encodes it to UTF-8.

Cell(12);
// Measured as RequestBodies.PostNewtonsoftStringAsync
static Task<long> PostNewtonsoftStringAsync(HttpClient client, Uri sink, Book[] books)
{
    string json = Newtonsoft.Json.JsonConvert.SerializeObject(books);
    return PostAsync(client, sink, new StringContent(json, Encoding.UTF8, MediaTypeNames.Application.Json));
}

// Measured as RequestBodies.PostStringAsync
static Task<long> PostStringAsync(HttpClient client, Uri sink, Book[] books)
{
    string json = JsonSerializer.Serialize(books, PooledJson.Options);
    return PostAsync(client, sink, new StringContent(json, Encoding.UTF8, MediaTypeNames.Application.Json));
}

// Three that write UTF-8 into pooled memory and send it with a Content-Length: S2's buffer writer, S2's
// recyclable stream, and the helpers' `PooledJsonContent`, which owns its array and returns it when the
// request is disposed.

Cell(14);
// Measured as RequestBodies.PostBufferWriterAsync
static async Task<long> PostBufferWriterAsync(HttpClient client, Uri sink, Book[] books)
{
    using ArrayPoolBufferWriter<byte> buffer = ToBufferWriter(books);
    return await PostAsync(client, sink, AsJson(new ReadOnlyMemoryContent(buffer.WrittenMemory)));
}

// Measured as RequestBodies.PostRecyclableStreamAsync
static async Task<long> PostRecyclableStreamAsync(HttpClient client, Uri sink, Book[] books)
{
    using RecyclableMemoryStream stream = ToRecyclableStream(books);
    return await PostAsync(client, sink, AsJson(new StreamContent(stream)));
}

// Measured as RequestBodies.PostPooledJsonContentAsync
static Task<long> PostPooledJsonContentAsync(HttpClient client, Uri sink, Book[] books)
    => PostAsync(client, sink, PooledHttp.Content.PooledJsonContent.Create(books));

// Two that serialize into the connection while sending, chunked, with no body held: `JsonContent`,
// and `PostAsJsonAsync`, which also buffers the response with the default completion option.

Cell(16);
// Measured as RequestBodies.PostJsonContentAsync
static Task<long> PostJsonContentAsync(HttpClient client, Uri sink, Book[] books)
    => PostAsync(client, sink, System.Net.Http.Json.JsonContent.Create(books, options: PooledJson.Options));

// Measured as RequestBodies.PostWithPostAsJsonAsync
static async Task<long> PostWithPostAsJsonAsync(HttpClient client, Uri sink, Book[] books)
{
    using HttpResponseMessage response = await client.PostAsJsonAsync(sink, books, PooledJson.Options);
    return await ReadCountAsync(response);
}

// The two `Protobuf_` rows are S2's binary rows with S2's library, protobuf-net. S2's MessagePack rows are
// left out. Their size column is the JSON's; the
// same books in protobuf are smaller (section 3 printed both).

Cell(18);
// Measured as RequestBodies.PostProtobufBufferWriterAsync
static async Task<long> PostProtobufBufferWriterAsync(HttpClient client, Uri sink, Book[] books)
{
    using var buffer = new ArrayPoolBufferWriter<byte>();
    BookMessages.Write(buffer, books);
    return await PostAsync(client, sink, BookMessages.AsProtobuf(new ReadOnlyMemoryContent(buffer.WrittenMemory)));
}

// Measured as RequestBodies.PostProtobufRecyclableStreamAsync
static async Task<long> PostProtobufRecyclableStreamAsync(HttpClient client, Uri sink, Book[] books)
{
    using RecyclableMemoryStream stream = RecyclableStreams.Manager.GetStream();
    BookMessages.Write((Stream)stream, books);
    stream.Position = 0;
    return await PostAsync(client, sink, BookMessages.AsProtobuf(new StreamContent(stream)));
}

// Each once, with about 70 KB of JSON: the sink's count against what the serializer makes of the same books.
Book[] sample = Book.Catalogue(RequestBodies.BooksFor(70_000));
long jsonLength = JsonSerializer.SerializeToUtf8Bytes(sample, PooledJson.Options).Length;
long newtonsoftLength = Encoding.UTF8.GetByteCount(Newtonsoft.Json.JsonConvert.SerializeObject(sample));
long protobufLength = BookMessages.SizeOf(sample);
Uri sinkUrl = server.Url("/sink");
foreach ((string name, Func<HttpClient, Uri, Book[], Task<long>> post, long expected) in new (string, Func<HttpClient, Uri, Book[], Task<long>>, long)[]
{
    ("Newtonsoft to a string", PostNewtonsoftStringAsync, newtonsoftLength),
    ("System.Text.Json to a string", PostStringAsync, jsonLength),
    ("buffer writer", PostBufferWriterAsync, jsonLength),
    ("recyclable stream", PostRecyclableStreamAsync, jsonLength),
    ("PooledJsonContent", PostPooledJsonContentAsync, jsonLength),
    ("JsonContent", PostJsonContentAsync, jsonLength),
    ("PostAsJsonAsync", PostWithPostAsJsonAsync, jsonLength),
    ("protobuf, buffer writer", PostProtobufBufferWriterAsync, protobufLength),
    ("protobuf, recyclable stream", PostProtobufRecyclableStreamAsync, protobufLength),
})
{
    long received = await post(http, sinkUrl, sample);
    Console.WriteLine($"{(received == expected ? "✓" : "✗")} {name,-30} the sink received {received,7:N0} bytes; the serializer makes {expected,7:N0}");
}

// **Before you run the next cell:** the `Baseline` row answers your first guess in section 2.

Cell(20);
MeasurementResult results = Measure.Run("05-request-bodies", server, typeof(RequestBodies));
display(results);

Cell(21);
var posts = results.ToList();
var s2 = PublishedFigure.Of("S2", "request-content");
foreach (int size in new[] { 70_000, 2_000_000 })
{
    display(Charts.Allocations($"05 · bytes allocated per POST, about {ByteUnits.Format(size)} of JSON",
        posts.Where(r => r.PayloadBytes == size), s2.Where(f => f.PayloadBytes == size)));
}

// ## 5 · Measured beside S2

Cell(23);
Console.WriteLine($"{"strategy",-50}{"size",9}{"here",12}{"S2",12}");
foreach (MeasuredRow row in posts)
{
    // S2's first run used an unstated "large" payload; its second run, 70,000 and 2,000,000 bytes.
    PublishedFigure published = s2.FirstOrDefault(f => f.Method == row.Strategy && f.PayloadBytes == row.PayloadBytes)
        ?? (row.PayloadBytes == 2_000_000 ? s2.FirstOrDefault(f => f.Method == row.Strategy && f.Payload == "large") : null);
    string note = published is null ? "-" : ByteUnits.Format(published.AllocatedBytes) + (published.Payload == "large" ? "*" : "");
    Console.WriteLine($"{row.Strategy,-50}{ByteUnits.Format(row.PayloadBytes!.Value),9}{ByteUnits.Format(row.AllocatedBytes),12}{note,12}");
}
Console.WriteLine("* S2's first run, payload size not stated.");

Console.WriteLine();
foreach (int size in new[] { 70_000, 2_000_000 })
{
    long protobufBody = BookMessages.SizeOf(Book.Catalogue(RequestBodies.BooksFor(size)));
    MeasuredRow intoWriter = results.Get("Protobuf_ReadOnlyMemoryContent", size), intoStream = results.Get("Protobuf_RecyclableStreamAndStreamContent", size);
    Console.WriteLine($"protobuf-net, a {protobufBody:N0}-byte body: into the pooled buffer writer {ByteUnits.Format(intoWriter.AllocatedBytes)} per request ({(double)intoWriter.AllocatedBytes / protobufBody:0.##} times the body), "
        + $"into the recyclable stream {ByteUnits.Format(intoStream.AllocatedBytes)} ({(double)intoStream.AllocatedBytes / protobufBody:0.###} times).");
}

MeasuredRow pooled2MB = results.Get("PooledJsonContent", 2_000_000);
Console.WriteLine($"\nThe helpers' pooled content posts 2 MB with {ByteUnits.Format(pooled2MB.AllocatedBytes)} allocated per request; the string baseline allocates {ByteUnits.Format(results.Get("Baseline", 2_000_000).AllocatedBytes)}.");
Console.WriteLine($"You guessed {ByteUnits.Format(stringGuess)} for Newtonsoft to a string at about 2 MB.");

// **Reading it.** A `string` of JSON is the expensive habit: the text is built as UTF-16, two bytes per
// character (on the large object heap from about 42,500 characters), then `StringContent` encodes it
// again into a UTF-8 array of the body's size
// ([StringContent.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http/src/System/Net/Http/StringContent.cs)).
// Newtonsoft allocates more of its own on top (not split here). Writing UTF-8 straight into pooled memory removes both: what
// remains is a cost per request, not a body (section 5's table; not split further here).
//
// The protobuf lines above print each row as a multiple of its protobuf body. Where the buffer-writer
// row reaches a body's worth while its stream twin stays in kilobytes, the allocation is protobuf-net's: from 3.3.0 on (3.4.40 here) its `IBufferWriter<byte>` path allocates more than the body on each call, and its stream path does not
// (`docs/measurements.md` has the versions side by side).
// S2 published a few KB for both protobuf rows and does not name its version.
// Measure your serializer, at the version you ship.
//
// ## 6 · S2's open question: why was the buffer writer not faster than the stream?
//
// Both paths serialize with `System.Text.Json` into pooled memory and send with a Content-Length.
// Where do they differ?
//
// - **Writing.** The serializer writes straight into `ArrayPoolBufferWriter<byte>`, which keeps one
//   array: when it fills, it rents a larger one from `ArrayPool<byte>.Shared`, copies what it holds and
//   returns the old one
//   ([ArrayPoolBufferWriter{T}.cs](https://github.com/CommunityToolkit/dotnet/blob/main/src/CommunityToolkit.HighPerformance/Buffers/ArrayPoolBufferWriter%7BT%7D.cs),
//   `ResizeBuffer`). The pool hands out powers of two, so each copy is about half the next and together
//   they move about one body. Serializing to a stream, `System.Text.Json` writes into a pooled buffer of
//   its own and copies it to the stream each time it fills
//   ([JsonTypeInfoOfT.WriteHelpers.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Text.Json/src/System/Text/Json/Serialization/Metadata/JsonTypeInfoOfT.WriteHelpers.cs)):
//   one copy of the body, into the recyclable stream's blocks.
// - **Sending.** `ReadOnlyMemoryContent` hands its memory to the connection in one call
//   ([ReadOnlyMemoryContent.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http/src/System/Net/Http/ReadOnlyMemoryContent.cs)),
//   which copies into its write buffer what fits and writes a larger rest straight to the socket
//   ([HttpConnection.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http/src/System/Net/Http/SocketsHttpHandler/HttpConnection.cs), `WriteAsync`).
//   `StreamContent` calls the stream's `CopyToAsync`
//   ([StreamContent.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http/src/System/Net/Http/StreamContent.cs)), which `RecyclableMemoryStream` (4.0.1 here)
//   overrides to write each block straight to the connection
//   ([RecyclableMemoryStream.cs](https://github.com/microsoft/Microsoft.IO.RecyclableMemoryStream/blob/HEAD/src/RecyclableMemoryStream.cs)).
//
// So, from the source, each path copies the body about once while serializing, in a different place
// (not measured apart). Is either faster?
// Three iterations leave a wide error (the table's ± column), so `SerializeThenSend` measures both at
// 2 MB with fifteen, serializing alone and serializing then posting. Each time carries its error: half the 99.9%
// confidence interval, as BenchmarkDotNet reports it.

Cell(25);
// Measured as SerializeThenSend.SerializeToBufferWriter
static int SerializeToBufferWriter(Book[] books)
{
    using ArrayPoolBufferWriter<byte> buffer = ToBufferWriter(books);
    return buffer.WrittenCount;
}

// Measured as SerializeThenSend.SerializeToRecyclableStream
static long SerializeToRecyclableStream(Book[] books)
{
    using RecyclableMemoryStream stream = ToRecyclableStream(books);
    return stream.Length;
}

// The POST halves are section 4's PostBufferWriterAsync and PostRecyclableStreamAsync.
Book[] large = Book.Catalogue(RequestBodies.BooksFor(2_000_000));
Console.WriteLine($"buffer writer: {SerializeToBufferWriter(large):N0} bytes of JSON; recyclable stream: {SerializeToRecyclableStream(large):N0}");

Cell(26);
// Fifteen iterations for each of four cases instead of the usual three: the line below prints how long they took.
MeasurementResult split = Measure.Run("05-request-bodies", server, MeasurementProfile.CurrentTimingJob, typeof(SerializeThenSend));
display(split);

Cell(27);
MeasuredRow Row(string method) => split.Get(method, 2_000_000);
foreach (string body in new[] { "BufferWriter", "RecyclableStream" })
{
    MeasuredRow serialize = Row($"Serialize_{body}");
    MeasuredRow post = Row($"Post_{body}");
    Console.WriteLine($"{body}: serialize {serialize.Time}, whole POST {post.Time}, so sending takes {TimeDifference.Between(post, serialize)}");
}

// The run decides: a difference within its error is no result.
static string Verdict(TimeDifference d) => !d.IsResolved ? "this run cannot tell the two apart" : d.Nanoseconds < 0 ? "the buffer writer took less time" : "the buffer writer took more time";
TimeDifference serializing = TimeDifference.Between(Row("Serialize_BufferWriter"), Row("Serialize_RecyclableStream"));
TimeDifference wholePost = TimeDifference.Between(Row("Post_BufferWriter"), Row("Post_RecyclableStream"));
Console.WriteLine();
Console.WriteLine($"buffer writer minus stream, serializing: {serializing}: {Verdict(serializing)}.");
Console.WriteLine($"buffer writer minus stream, whole POST:  {wholePost}: {Verdict(wholePost)}.");

// **The answer.** The last two lines say whether this run separates the two paths, and may
// differ from run to run: a difference larger than its error is a result;
// "inconclusive" means the run could not tell the two apart.
// S2's own large-payload times (`published.csv`) include a round trip to httpbin.org: not comparable.
// Choose by ownership instead. The buffer writer's memory must outlive the send (dispose it after
// `SendAsync` completes, never before); the recyclable stream must be rewound before it is wrapped; the
// helpers' `PooledJsonContent` owns its buffer, so neither mistake is possible.
//
// **Chunked against Content-Length.** `JsonContent` serializes into the connection as it sends and
// never holds the whole body. The price is `Transfer-Encoding: chunked`: it cannot know its length
// ([JsonContent.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http.Json/src/System/Net/Http/Json/JsonContent.cs),
// `TryComputeLength`): some servers and proxies refuse bodies without one. Sent again (a redirect that
// keeps the body, a retry), it serializes again: it holds the object, not the bytes. A pooled body
// knows its length and sends the same bytes twice.

// ## 7 · Your turn: 2 MB of JSON for under 8 KiB
//
// In `exercises/E05_PostJson.cs`, post the books as JSON with a Content-Length and return the sink's
// answer. The check reads back what went over the wire. Your guess is in section 2.
//
// The call builds `exercises/`, checks your code in its own process, then measures it beside this
// chapter's strategies. Edit, save, run the cell again: it rebuilds. Until you write it, it reports
// "exercise not done yet".

Cell(30);
ExerciseResult e05 = Exercise05.Run(server, jsonBytes: 2_000_000);
display(e05);

Cell(31);
display(e05.Chart(results));
Console.WriteLine(e05.Compare(bytesGuess));

Cell(32);
http.Dispose();
await server.DisposeAsync();
Console.WriteLine("Server stopped.");

// ## Recap
//
// - Serializing ASCII JSON to a `string` costs several bodies, UTF-16 text then a UTF-8 copy, and
//   Newtonsoft more on top (section 5's table); the string reaches the large object heap from about 42,500 characters.
// - JSON written as UTF-8 into pooled memory leaves per-request costs, not a body (section 5's table).
// - `JsonContent` never holds the body but sends chunked, and serializes again if sent twice; pooled
//   contents send a Content-Length and the same bytes every time.
// - The buffer writer and the recyclable stream each copy the body about once (from the source):
//   choose by ownership; section 6's lines say whether this run saw a difference in time.
//
// **Next:** [06 · HTTP/2](../06-http2.ipynb)
//
// *Source: S2, Devindran Ramadass, "How to improve memory allocation when creating HttpContent",
// https://hashnode.devindran.com/how-to-improve-memory-allocation-when-creating-httpcontent*
