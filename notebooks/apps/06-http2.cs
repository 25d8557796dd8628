// Chapter 06-http2 as a .NET file-based app, written from notebooks/06-http2.ipynb by `dotnet run --project tools/Publish/GenerateApps`.
// To change the chapter itself, edit the notebook and run that command again (a test fails while the two differ).
// Your own lines are yours to edit here: a guess the text asks for, a value to try.
//
// Run it from anywhere in the clone:  dotnet run notebooks/apps/06-http2.cs          (the quick profile: add -- --quick)
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
using System.Threading;
using System.Net;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Exercising;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;
using static PooledHttp.Workshop.Notebooks.ChapterApp; // display(...), HTML(...), Start, Cell

Start("06-http2", args);

// # 06 · HTTP/2
//
// **What you will learn**
// - how to run an HTTP/2 server without TLS ([h2c](../../docs/glossary.md#h2c)) next to your notebook, and how a client asks for it;
// - what one POST of 100,000 bytes allocates over HTTP/1.1 and over HTTP/2, reusing one request
//   message or building a new one each time;
// - what S3 removed from the HTTP/2 path in .NET 5, and what the runtime's HTTP/2 stream still
//   creates for every request.
//
// This chapter retells S3, dotnet/runtime PR #32557, ["Reduce simple HTTP/2 post app allocation by ~40%"](https://github.com/dotnet/runtime/pull/32557) (February 2020);
// [the reference run](../../data/results/reference/MACHINE.md) lists how long each chapter took.

// ## 1 · Set up
//
// Two cells: the first builds the helpers library, the second loads it, names the namespaces this
// chapter uses (the kernel imports only `System`, `System.Text`, `System.Collections(.Generic)`,
// `System.Threading.Tasks` and `System.Linq` for you) and loads plotly.js for the charts.

// Cell 3, the notebook's setup (#load "workshop.csx" builds the kit into artifacts/notebook-bin): the #:project line at the top does it here.

// Cell 4, the notebook's setup (#load "kit.csx" references the kit): the #:project line at the top does it here.

// ## 2 · Predict first
//
// Section 4 sends S3's POST of 100,000 bytes over HTTP/1.1 and HTTP/2. Before any figure: with a new
// request message each time, over HTTP/2, how many bytes does one POST allocate? The exercise asks the
// same of your request.

Cell(6);
long bytesGuess = 0; // bytes per 100,000-byte POST over HTTP/2, a new message each time

// ## 3 · An h2c server
//
// `LocalServer` serves HTTP/1.1 only, so this chapter starts Kestrel (`Http2Server` in
// the helpers): one loopback port that speaks **only** HTTP/2 in clear text, one that speaks only
// HTTP/1.1, both answering `POST /sink` with the number of bytes received. Without TLS,
// `SocketsHttpHandler` does not negotiate HTTP/2 for you (the cell below shows what each policy gets), so the
// client must know in advance ("prior knowledge"): it asks for
// `Version = 2.0` with a version policy. The cell tries each policy, then the defaults (HTTP/1.1,
// which the HTTP/2-only port turns away):

Cell(8);
Http2Server h2 = await Http2Server.StartAsync();
Console.WriteLine($"HTTP/2 (h2c) on {h2.Http2Address}, HTTP/1.1 on {h2.Http11Address}");

using (var client = new HttpClient())
{
    foreach (HttpVersionPolicy policy in Enum.GetValues<HttpVersionPolicy>())
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, new Uri(h2.Http2Address, "/sink"))
        {
            Version = HttpVersion.Version20,
            VersionPolicy = policy,
            Content = new ByteArrayContent(new byte[100_000]),
        };
        try
        {
            using HttpResponseMessage response = await client.SendAsync(request);
            string answer = await response.Content.ReadAsStringAsync();
            Console.WriteLine(response.IsSuccessStatusCode
                ? $"Version 2.0, {policy,-24}: {(int)response.StatusCode} over HTTP/{response.Version}; the server received {answer} bytes."
                : $"Version 2.0, {policy,-24}: {(int)response.StatusCode} over HTTP/{response.Version}: {answer}");
        }
        catch (HttpRequestException e)
        {
            Console.WriteLine($"Version 2.0, {policy,-24}: failed: {e.Message}");
        }
    }

    using HttpResponseMessage defaults = await client.PostAsync(new Uri(h2.Http2Address, "/sink"), new ByteArrayContent(new byte[100_000]));
    Console.WriteLine($"Defaults: {(int)defaults.StatusCode} over HTTP/{defaults.Version}: {await defaults.Content.ReadAsStringAsync()}");
}

// Without TLS the client cannot learn that the server speaks HTTP/2, so with `RequestVersionOrLower`
// it sends HTTP/1.1
// ([HttpConnectionPool.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http/src/System/Net/Http/SocketsHttpHandler/ConnectionPool/HttpConnectionPool.cs):
// "prefer HTTP/1.1 if connection is not secured and downgrade is possible"), which the HTTP/2-only port
// turns away. The two other policies reach it over HTTP/2 (the lines above).

// ## 4 · S3's app, as a benchmark
//
// S3 measured a small app: an `HttpMessageInvoker` over a `SocketsHttpHandler` with cookies and
// redirects off, sending **one** `HttpRequestMessage` (POST, 100,000 zero bytes) a thousand times and
// copying each response to `Stream.Null`. `Http2Post` (in `helpers/PooledHttp.Workshop.Benchmarks/Benchmarks`) does the
// same, over both protocols, and adds the variant most code writes: a new message per request.
// `HttpClient` refuses to send one message twice
// ([HttpClient.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http/src/System/Net/Http/HttpClient.cs),
// `CheckRequestMessage`); the bare invoker does not check, and the cell below sends one message twice.
// Its two benchmarks call these methods; the cell sends each once over HTTP/2:

Cell(11);
// Measured as Http2Post.SendAsync
static async Task<long> SendAsync(HttpMessageInvoker invoker, HttpRequestMessage request)
{
    using HttpResponseMessage response = await invoker.SendAsync(request, CancellationToken.None);
    response.EnsureSuccessStatusCode();
    Stream stream = await response.Content.ReadAsStreamAsync();
    await stream.CopyToAsync(Stream.Null);
    return response.Content.Headers.ContentLength ?? 0;
}

// Measured as Http2Post.NewRequest
static HttpRequestMessage NewRequest(Uri sink, Version version, byte[] body) => new(HttpMethod.Post, sink)
{
    Version = version,
    VersionPolicy = HttpVersionPolicy.RequestVersionExact,
    Content = new ByteArrayContent(body),
};

// Measured as Http2Post.SendNewRequestAsync
static async Task<long> SendNewRequestAsync(HttpMessageInvoker invoker, Uri sink, Version version, byte[] body)
{
    using HttpRequestMessage request = NewRequest(sink, version, body);
    return await SendAsync(invoker, request);
}

using (var invoker = new HttpMessageInvoker(new SocketsHttpHandler { UseCookies = false, AllowAutoRedirect = false }))
{
    Uri sink = new(h2.Http2Address, "/sink");
    byte[] body = new byte[Http2Post.BodySize];
    using HttpRequestMessage reused = NewRequest(sink, HttpVersion.Version20, body);
    // The server answers with the number of bytes it received, written as digits: the lengths below are of that answer.
    long first = await SendAsync(invoker, reused), second = await SendAsync(invoker, reused);
    Console.WriteLine($"Reused message, sent twice: two successful answers, {first} and {second} bytes long (the digits of the count the server received, as in section 3).");
    Console.WriteLine($"A new message: an answer of {await SendNewRequestAsync(invoker, sink, HttpVersion.Version20, body)} bytes.");
}

Cell(12);
MeasurementResult results = Measure.Run("06-http2", h2.Context, typeof(Http2Post));
display(results);
display(Charts.Allocations("06 · bytes allocated per 100,000-byte POST", results));

Cell(13);
MeasuredRow h1Reused = results.Get("ReusedRequest", variant: "Http11");
MeasuredRow h2Reused = results.Get("ReusedRequest", variant: "Http2");
MeasuredRow h1New = results.Get("NewRequest_EachTime", variant: "Http11");
MeasuredRow h2New = results.Get("NewRequest_EachTime", variant: "Http2");
static string MoreOrLess(long bytes) => bytes >= 0 ? $"{ByteUnits.Format(bytes)} more" : $"{ByteUnits.Format(-bytes)} less";

Console.WriteLine($"Reused message:  HTTP/1.1 {ByteUnits.Format(h1Reused.AllocatedBytes),9}, HTTP/2 {ByteUnits.Format(h2Reused.AllocatedBytes),9} per request");
Console.WriteLine($"New message:     HTTP/1.1 {ByteUnits.Format(h1New.AllocatedBytes),9}, HTTP/2 {ByteUnits.Format(h2New.AllocatedBytes),9} per request");
Console.WriteLine($"A new message, with its content and headers: {MoreOrLess(h2New.AllocatedBytes - h2Reused.AllocatedBytes)} than a reused one over HTTP/2, {MoreOrLess(h1New.AllocatedBytes - h1Reused.AllocatedBytes)} over HTTP/1.1.");
Console.WriteLine($"HTTP/2 against HTTP/1.1, reused message: {MoreOrLess(h2Reused.AllocatedBytes - h1Reused.AllocatedBytes)} per request.");
long most = results.Max(r => r.AllocatedBytes);
Console.WriteLine(most < Http2Post.BodySize
    ? $"No row allocates a body's worth: at most {ByteUnits.Format(most)} per request against {Http2Post.BodySize:N0} bytes sent ({100.0 * most / Http2Post.BodySize:0.#}% of it), so the requests did not, on average, allocate a copy of the body (a copy through a pooled buffer would not show here)."
    : $"A row allocates {ByteUnits.Format(most)} per request: a body's worth or more of the {Http2Post.BodySize:N0} bytes sent.");

PublishedClaim count = PublishedClaim.Of("S3", "http2-post"), bytes = PublishedClaim.Of("S3", "http2-post-bytes");
Console.WriteLine($"\nS3 (2020): {count.Percent:0}% fewer allocations and {bytes.Percent:0}% fewer bytes than the build before it. Its absolute figures were not published, so there is no bar to set beside these.");

// ## 5 · What S3 removed, and what remains
//
// What S3 changed, besides an `SslStream.ReadAsync` change that helps every TLS user (not measured
// here: this chapter has no TLS):
//
// | S3 removed | why it mattered per request |
// |---|---|
// | a linked `CancellationTokenSource` when the caller's token cannot cancel | S3's app passed `CancellationToken.None`, yet paid for a linked source per request |
// | a redundant `ReadOnlyMemory<byte>` field, allocations for empty values | a larger object, small strings and arrays per request |
// | two awaits per frame read, replaced by one "fill until N bytes" loop | fewer async calls that can suspend; each call that does allocates its state machine once ([AsyncTaskMethodBuilderT.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Private.CoreLib/src/System/Runtime/CompilerServices/AsyncTaskMethodBuilderT.cs)) |
// | a `Queue<Waiter>` plus a `TaskCompletionSource<int>` per wait for window credit | objects per wait, replaced by one reusable `IValueTaskSource` |
// | a small async helper, inlined | one more state machine |
//
// None of these is measured on its own here. Among what the runtime creates for every HTTP/2 request,
// `Http2Stream`'s constructor makes
// ([Http2Stream.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http/src/System/Net/Http/SocketsHttpHandler/Http2Stream.cs)):
// the stream object (its response buffer and window manager are structs inside it, and the buffer rents
// its blocks from `ArrayPool<byte>.Shared`),
// the response message and its content, and, for every request with a body, a `CancellationTokenSource`,
// whatever token the caller passed. It
// is a plain source, not the linked one S3 removed, but the benchmark's `None` does not avoid it.
//
// Section 4's lines separate two differences: a new against a reused message is what reuse changes; HTTP/1.1 against HTTP/2 is what the HTTP/2 path allocates on top of HTTP/1.1; nothing here splits it into its parts. The line after them says whether any
// request allocated a body's worth.
//
// **Allocation counts.** S3 reported both the number of allocations and their bytes (the percentages the cell above printed).
// BenchmarkDotNet's memory diagnoser reports bytes and collections, not a count of objects, so this
// chapter compares bytes.

// ## 6 · Your turn: a request that speaks HTTP/2
//
// In `exercises/E06_Http2Request.cs`, build the POST that reaches a server speaking HTTP/2 without
// TLS and nothing else. The measurement sends S3's 100,000-byte POST with a new request from your
// method each time. Your guess is in section 2.
//
// The call builds `exercises/`, checks your code in a process of its own, then measures it beside this
// chapter's strategies. Edit, save, run the cell again: it rebuilds. Until you write it, it reports
// "exercise not done yet".

Cell(16);
ExerciseResult e06 = Exercise06.Run(h2);
display(e06);

Cell(17);
display(e06.Chart(results));
Console.WriteLine(e06.Compare(bytesGuess));

Cell(18);
await h2.DisposeAsync();
Console.WriteLine("Server stopped.");

// ## Recap
//
// - h2c needs prior knowledge: `Version = 2.0` with a policy that does not fall back
//   (`RequestVersionExact` or `RequestVersionOrHigher`), against a server that speaks HTTP/2 without TLS
//   (Kestrel with `Protocols = Http2`).
// - Sending a 100,000-byte body need not allocate a copy of it: section 4 prints the largest row as a
//   share of the body. HTTP/2 still copies each frame through the connection's pooled write buffer
//   ([`Http2Connection.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.Http/src/System/Net/Http/SocketsHttpHandler/Http2Connection.cs)).
// - HTTP/2 adds a stream object and more per request; section 4 prints the difference from HTTP/1.1.
// - Reusing a request message changes what each request allocates: section 4 prints by how much over
//   each protocol, with its sign. S3's reuse works only with a bare
//   `HttpMessageInvoker`.
//
// **Next:** [07 · Under load](../07-under-load.ipynb)
//
// *Source: S3, dotnet/runtime PR #32557, "Reduce simple HTTP/2 post app allocation by ~40%",
// https://github.com/dotnet/runtime/pull/32557*
