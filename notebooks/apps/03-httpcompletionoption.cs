// Chapter 03-httpcompletionoption as a .NET file-based app, written from notebooks/03-httpcompletionoption.ipynb by `dotnet run --project tools/Publish/GenerateApps`.
// To change the chapter itself, edit the notebook and run that command again (a test fails while the two differ).
// Your own lines are yours to edit here: a guess the text asks for, a value to try.
//
// Run it from anywhere in the clone:  dotnet run notebooks/apps/03-httpcompletionoption.cs          (the quick profile: add -- --quick)
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
using System.Diagnostics;
using System.Net.Http.Json;
using System.IO;
using System.Net.Http;
using System.Text.Json;
using PooledHttp.Content;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Demos;
using PooledHttp.Workshop.Exercising;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;
using static PooledHttp.Workshop.Notebooks.ChapterApp; // display(...), HTML(...), Start, Cell

Start("03-httpcompletionoption", args);

// # 03 · Don't buffer what you stream: HttpCompletionOption
//
// **What you will learn**
// - what `HttpCompletionOption.ResponseContentRead` (the default) and `ResponseHeadersRead` change:
//   when `GetAsync` returns, and what it allocates on the way;
// - how much that saves on a JSON API, just getting the stream and deserializing from it, measured
//   beside Steve Gordon's published savings;
// - which convenience methods stream and which buffer;
// - the price of `ResponseHeadersRead`: the response owns a connection until you dispose it.
//
// This chapter retells S4, [Using HttpCompletionOption to Improve HttpClient Performance in
// .NET](https://www.stevejgordon.co.uk/using-httpcompletionoption-responseheadersread-to-improve-httpclient-performance-dotnet)
// by Steve Gordon; [the reference run](../../data/results/reference/MACHINE.md) lists how long each chapter took (the first exercise build adds to it).

// ## 1 · Set up
//
// Two cells, as in chapter 00: the first builds the helpers, the second loads them, names the
// namespaces this chapter uses and loads plotly.js for the charts.

// Cell 3, the notebook's setup (#load "workshop.csx" builds the kit into artifacts/notebook-bin): the #:project line at the top does it here.

// Cell 4, the notebook's setup (#load "kit.csx" references the kit): the #:project line at the top does it here.

// ## 2 · Predict first
//
// Section 5 measures reading 250 books from a JSON API with the default completion option and with
// `ResponseHeadersRead`, deserializing them both ways: what share of the default's bytes does
// `ResponseHeadersRead` save? And the exercise: your streamed count of 250 books, how many bytes per
// request?

Cell(6);
double savingGuess = 0; // percent saved by streaming, deserializing 250 books
long bytesGuess = 0;     // bytes per request of your streamed count of 250 books (the exercise)

// ## 3 · The books API
//
// S4 measured a local API that returns a JSON array of books, each with four strings, with 5 and with
// 250 books. The local server's `/books?count=n` is that API.

Cell(8);
var server = LocalServer.Start();
var http = new HttpClient();

foreach (int count in new[] { 5, 250 })
{
    byte[] json = await http.GetByteArrayAsync(server.Url($"/books?count={count}"));
    Console.WriteLine($"/books?count={count}: {json.Length:N0} bytes of JSON");
}
Book[] sample = (await http.GetFromJsonAsync<Book[]>(server.Url("/books?count=2")))!;
Console.WriteLine($"The first book: {sample[0]}");

// ## 4 · When does `GetAsync` return?
//
// The `/slow` endpoint sends 64 KiB in four pieces, 200 ms apart. The cell below asks for it five
// ways: `GetAsync` with each completion option, `GetStreamAsync`, `GetByteArrayAsync` and
// `GetStringAsync`. Before you run it: which of them hand control back before the body has arrived?

Cell(10);
Uri slow = server.Url("/slow?size=65536&chunk=16384&delayMs=200");
var calls = new (string Name, Func<Task> Call)[]
{
    ("GetAsync (ResponseContentRead, the default)", async () => { using var r = await http.GetAsync(slow); }),
    ("GetAsync (ResponseHeadersRead)", async () => { using var r = await http.GetAsync(slow, HttpCompletionOption.ResponseHeadersRead); }),
    ("GetStreamAsync", async () => { using var s = await http.GetStreamAsync(slow); }),
    ("GetByteArrayAsync", async () => { _ = await http.GetByteArrayAsync(slow); }),
    ("GetStringAsync", async () => { _ = await http.GetStringAsync(slow); }),
};
foreach (var (name, call) in calls)
{
    var clock = Stopwatch.StartNew();
    await call();
    Console.WriteLine($"{name,-45} returned after {clock.ElapsedMilliseconds,5} ms");
}

// By default `GetAsync`, `PostAsync` and `SendAsync` return only once the **whole body** has been
// read into a buffer inside the response
// ([`HttpClient.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.Http/src/System/Net/Http/HttpClient.cs)):
// the first line. With `ResponseHeadersRead` they return as soon as the headers are in, and the body
// streams from the connection as you read it: the next two lines. `GetByteArrayAsync` and
// `GetStringAsync` wait for the whole body too, since they return it whole; they read the headers
// first, so the response keeps no buffer of its own, but what they return holds the whole body.
// (Disposing a streamed response before its end drains what is left, up to
// `SocketsHttpHandler.MaxResponseDrainSize`, or closes the connection
// ([`HttpContentReadStream.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.Http/src/System/Net/Http/SocketsHttpHandler/HttpContentReadStream.cs));
// section 7 shows why the `using` matters.)
//
// ## 5 · Measure: buffer, or stream
//
// `CompletionOptions` (in `helpers/PooledHttp.Workshop.Benchmarks/Benchmarks`) reads the books with each
// option, once just opening the stream and once deserializing from it with System.Text.Json, plus
// `GetFromJsonAsync`. Its benchmarks call these three methods; each runs once here first:

Cell(12);
// Measured as CompletionOptions.OpenStreamAsync
static async Task<bool> OpenStreamAsync(HttpClient client, Uri url, HttpCompletionOption option)
{
    using HttpResponseMessage response = await client.GetAsync(url, option);
    response.EnsureSuccessStatusCode();
    Stream stream = await response.Content.ReadAsStreamAsync();
    return stream.CanRead;
}

// Measured as CompletionOptions.DeserializeBooksAsync
static async Task<int> DeserializeBooksAsync(HttpClient client, Uri url, HttpCompletionOption option)
{
    using HttpResponseMessage response = await client.GetAsync(url, option);
    response.EnsureSuccessStatusCode();
    Stream stream = await response.Content.ReadAsStreamAsync();
    Book[] books = await JsonSerializer.DeserializeAsync<Book[]>(stream, PooledJson.Options)
        ?? throw new JsonException("The books API returned null.");
    return books.Length;
}

// Measured as CompletionOptions.GetBooksFromJsonAsync
static async Task<int> GetBooksFromJsonAsync(HttpClient client, Uri url)
{
    Book[] books = await client.GetFromJsonAsync<Book[]>(url, PooledJson.Options)
        ?? throw new JsonException("The books API returned null.");
    return books.Length;
}

Uri books250 = server.Url("/books?count=250");
foreach (HttpCompletionOption option in new[] { HttpCompletionOption.ResponseContentRead, HttpCompletionOption.ResponseHeadersRead })
{
    Console.WriteLine($"{option,-20} stream opened: {await OpenStreamAsync(http, books250, option)}, books deserialized: {await DeserializeBooksAsync(http, books250, option)} of 250");
}
Console.WriteLine($"GetFromJsonAsync     books: {await GetBooksFromJsonAsync(http, books250)} of 250");

Cell(13);
MeasurementResult results = Measure.Run("03-httpcompletionoption", server, typeof(CompletionOptions));
display(results);

Cell(14);
foreach (int books in new[] { 5, 250 })
{
    var rows = results.Where(r => r.Variant == $"Books={books}");
    display(Charts.Allocations($"03 · bytes allocated per request, {books} books", rows, label: r => r.Strategy));
}

// ## 6 · The savings, beside S4's
//
// S4's tables were images; the post states its results as percentages, kept in
// `data/published/claims.csv`. Here are the same percentages from this run:

Cell(16);
double Saving(string buffered, string streamed, int books)
{
    long before = results.Get(buffered, variant: $"Books={books}").AllocatedBytes;
    long after = results.Get(streamed, variant: $"Books={books}").AllocatedBytes;
    return 100.0 * (before - after) / before;
}

PublishedClaim stream250 = PublishedClaim.Of("S4", "books-250-stream");
PublishedClaim deserialize250 = PublishedClaim.Of("S4", "books-250-deserialize");
Console.WriteLine($"{"",-28}{"measured here",15}{"S4 published",15}");
Console.WriteLine($"{"stream only, 5 books",-28}{Saving("ContentRead_Stream", "HeadersRead_Stream", 5),14:0}%{"-",15}");
Console.WriteLine($"{"stream only, 250 books",-28}{Saving("ContentRead_Stream", "HeadersRead_Stream", 250),14:0}%{stream250.Percent,14:0}%");
Console.WriteLine($"{"deserialize, 5 books",-28}{Saving("ContentRead_Deserialize", "HeadersRead_Deserialize", 5),14:0}%{"-",15}");
Console.WriteLine($"{"deserialize, 250 books",-28}{Saving("ContentRead_Deserialize", "HeadersRead_Deserialize", 250),14:0}%{deserialize250.Percent,14:0}%");
foreach (int books in new[] { 5, 250 })
{
    MeasuredRow oneLiner = results.Get("GetFromJsonAsync", variant: $"Books={books}");
    MeasuredRow streamed = results.Get("HeadersRead_Deserialize", variant: $"Books={books}");
    Console.WriteLine($"GetFromJsonAsync, {books} books: {ByteUnits.Format(oneLiner.AllocatedBytes)} against {ByteUnits.Format(streamed.AllocatedBytes)} for ResponseHeadersRead + DeserializeAsync");
}
Console.WriteLine("(-: S4 published no figure for that row.)");
Console.WriteLine($"You guessed {savingGuess:0}% for deserializing 250 books.");

// **Reading it.** With `ResponseHeadersRead` nothing buffers the body, so what streaming saves is
// the buffer. Just getting the stream, the buffer is most of what the buffered version allocates for
// 250 books; what is left is not the body, and this chapter does not take it apart further. With
// deserialization, this run and S4 part ways. Where do the bytes go?

Cell(18);
int json250 = (await http.GetByteArrayAsync(server.Url("/books?count=250"))).Length;
MeasuredRow bufferedBooks = results.Get("ContentRead_Deserialize", variant: "Books=250");
MeasuredRow streamedBooks = results.Get("HeadersRead_Deserialize", variant: "Books=250");
MeasuredRow streamOnly = results.Get("HeadersRead_Stream", variant: "Books=250");
long buffer = bufferedBooks.AllocatedBytes - streamedBooks.AllocatedBytes;
long objects = streamedBooks.AllocatedBytes - streamOnly.AllocatedBytes;
Console.WriteLine($"250 books are {json250:N0} bytes of JSON.");
Console.WriteLine($"Buffered minus streamed, both deserializing (the buffer, and whatever else differs): {buffer:N0} bytes, {(double)buffer / json250:0.0} x the JSON.");
Console.WriteLine($"Deserializing, beyond opening the stream: {objects:N0} bytes, {(double)objects / json250:0.0} x the JSON.");

// `/books` sends a Content-Length (see `case "/books"` in [`Endpoints.cs`](../../helpers/PooledHttp.Workshop.Server/Server/Endpoints.cs)), so on this runtime the buffer `ResponseContentRead` builds is one
// array of the body's size (chapter 02, section 6), while deserializing costs several times the JSON, as the cell above
// printed. Streaming removes only the first, so the saving
// is the fraction the table prints. S4's published saving says its buffer was the larger part; the post gives
// neither its byte counts nor its runtime's buffering, so this run cannot say why. The direction is
// the same in both: stream, and the buffer goes away. The objects are what you asked for.
//
// `GetFromJsonAsync` reads the headers first and deserializes from the stream, so it saves the
// buffer as the hand-written streamed version does. On top, it links a `CancellationTokenSource` to
// the client's `Timeout` and wraps the stream in a length check
// ([`HttpClientJsonExtensions.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.Http.Json/src/System/Net/Http/Json/HttpClientJsonExtensions.cs)):
// a small extra cost, which the last lines of section 6 show beside the hand-written version at
// both sizes. Its sibling `PostAsJsonAsync` does not stream its response: it calls `PostAsync`,
// which buffers it with the default option
// ([`HttpClientJsonExtensions.Post.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.Http.Json/src/System/Net/Http/Json/HttpClientJsonExtensions.Post.cs)).
//
// | API | body read | buffers the body first |
// |---|---|---|
// | `GetAsync`, `PostAsync`, `SendAsync` (default) | before returning | yes |
// | the same with `ResponseHeadersRead` | by you, from the stream | no |
// | `GetStreamAsync` | by you, from the stream | no |
// | `GetByteArrayAsync` | whole, into the returned array | only without a length, in pooled arrays |
// | `GetStringAsync` | whole, into the returned string | yes, in pooled arrays, then decoded |
// | `GetFromJsonAsync` | streamed into the deserializer | no |
// | `PostAsJsonAsync`, `PutAsJsonAsync` | response buffered (default option) | yes |
//
// ## 7 · The price: you own the connection until you dispose
//
// A response read with `ResponseHeadersRead` holds its connection until its body is read to the end
// or the response is disposed. Forget the `using`, and that connection serves nobody else while the
// response lies unread. With a pool of one connection per server the next request waits for it; the
// helpers' `ConnectionStarvation` demo gives that request two seconds, then disposes the first
// response and tries again:

Cell(20);
StarvationOutcome outcome = await ConnectionStarvation.DemonstrateAsync(server.BytesUrl(1024 * 1024), TimeSpan.FromSeconds(2));
Console.WriteLine(outcome);

// The default pool allows unlimited connections per server
// ([`HttpHandlerDefaults.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/Common/src/System/Net/Http/HttpHandlerDefaults.cs)),
// so in real code this shows up not as a hang but as a slow leak: a new connection for every
// forgotten response. Dispose the response as soon as you are done with the body: a `using`
// *statement* whose block ends right after the read, rather than a `using` declaration that lives to
// the end of a long method.

// ## 8 · Your turn: count the books as they stream
//
// In `exercises/E03_StreamTheBooks.cs`, count the books the API returns without letting the body
// sit whole in a buffer first, and dispose the response. The check watches the client you are given
// and says if the body was buffered.
//
// Your guess is in section 2. The first cell below builds `exercises/`, checks your code in its own process
// (never in this kernel), then measures it beside this chapter's strategies. Until you write it, it
// reports "exercise not done yet". Edit, save, run the cell again: it rebuilds.

Cell(23);
ExerciseResult e03 = Exercise03.Run(server, books: 250);
display(e03);

Cell(24);
display(e03.Chart(results));
Console.WriteLine(e03.Compare(bytesGuess));

Cell(25);
http.Dispose();
await server.DisposeAsync();
Console.WriteLine("Server stopped.");

// ## Recap
//
// - The default completion option buffers the whole body before `GetAsync` returns;
//   `ResponseHeadersRead` returns after the headers and lets you stream.
// - Streaming saves the buffer: most of the bytes for 250 books when you only open the stream, the
//   fraction section 6 prints once you deserialize, since the objects cost more than the buffer.
// - `GetFromJsonAsync`, `GetStreamAsync`, `GetByteArrayAsync` and `GetStringAsync` read headers first;
//   `PostAsJsonAsync` and the plain `GetAsync` do not.
// - A streamed response holds its connection until disposed: always dispose it, promptly.
//
// **Next:** [04 · Pooled buffers: build the pooled read](../04-pooled-buffers.ipynb)
//
// *Source: S4, Steve Gordon, "Using HttpCompletionOption to Improve HttpClient Performance in .NET",
// https://www.stevejgordon.co.uk/using-httpcompletionoption-responseheadersread-to-improve-httpclient-performance-dotnet*
