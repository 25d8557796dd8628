// Chapter 02-the-5mb-download as a .NET file-based app, written from notebooks/02-the-5mb-download.ipynb by `dotnet run --project tools/Publish/GenerateApps`.
// To change the chapter itself, edit the notebook and run that command again (a test fails while the two differ).
// Your own lines are yours to edit here: a guess the text asks for, a value to try.
//
// Run it from anywhere in the clone:  dotnet run notebooks/apps/02-the-5mb-download.cs          (the quick profile: add -- --quick)
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
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Exercising;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;
using PooledHttp.Workshop.Trying;
using static PooledHttp.Workshop.Notebooks.ChapterApp; // display(...), HTML(...), Start, Cell

Start("02-the-5mb-download", args);

// # 02 · The 5 MB download
//
// **What you will learn**
// - why the most natural download code, `SendAsync` then `ReadAsByteArrayAsync`, allocated about
//   5 MB for a 1 MiB body on .NET 8, measured here on .NET 8, 9 and yours;
// - what a [`Content-Length`](../../docs/glossary.md#content-length) header on the server changes;
// - why `GetByteArrayAsync` is cheaper, and why it cannot go below the body's size;
// - how the cost of each grows with the body, from 16 KiB to 16 MiB.
//
// This chapter retells the first half of S0, [Removing Memory Allocations in HTTP Requests Using
// ArrayPool&lt;T&gt;](https://www.xaml.dev/post/removing-memory-allocations-in-http-requests-using-arraypools)
// (xaml.dev, 2023). It measures three runtimes; [the reference run](../../data/results/reference/MACHINE.md) lists how long each chapter took.

// ## 1 · Set up

// Cell 3, the notebook's setup (#load "workshop.csx" builds the kit into artifacts/notebook-bin): the #:project line at the top does it here.

// Cell 4, the notebook's setup (#load "kit.csx" references the kit): the #:project line at the top does it here.

// ## 2 · S0's server
//
// S0's server answered every request with one write of a 1 MiB buffer and **no Content-Length**, so
// the body went out with `Transfer-Encoding: chunked`: the client only learns the length when the
// body ends. The local server's `/bytes` endpoint does the same, and adds a Content-Length when asked
// with `length=true`. Look at the headers of both:

Cell(6);
const int OneMiB = 1024 * 1024;
var server = LocalServer.Start();
var http = new HttpClient();

foreach (bool contentLength in new[] { false, true })
{
    using HttpResponseMessage response = await http.GetAsync(server.BytesUrl(OneMiB, contentLength), HttpCompletionOption.ResponseHeadersRead);
    Console.WriteLine($"{server.BytesUrl(OneMiB, contentLength).PathAndQuery,-32} chunked: {response.Headers.TransferEncodingChunked == true,-5}  Content-Length: {response.Content.Headers.ContentLength?.ToString("N0") ?? "(none)"}");
}

// ## 3 · S0's first two strategies
//
// `NaiveDownload` (in `helpers/PooledHttp.Workshop.Benchmarks/Benchmarks`) measures S0's first two
// strategies under S0's names. `GetByteArrayAsync` is chapter 00's one-liner. `Client_Send_GetByteArrayAsync`
// is the code most downloads start with: `SendAsync` with the default completion option, which buffers
// the whole body before it returns, then `ReadAsByteArrayAsync`. The benchmark calls the helpers' copy:

Cell(8);
// Measured as Downloads.SendThenReadAsByteArrayAsync
static async Task<int> SendThenReadAsByteArrayAsync(HttpClient client, Uri url)
{
    using var request = new HttpRequestMessage(HttpMethod.Get, url);
    using HttpResponseMessage response = await client.SendAsync(request);
    response.EnsureSuccessStatusCode();
    byte[] body = await response.Content.ReadAsByteArrayAsync();
    return body.Length;
}

Console.WriteLine(await TryOnce.DownloadAsync(SendThenReadAsByteArrayAsync, server.BytesUrl(OneMiB)));
Console.WriteLine(await TryOnce.DownloadAsync(SendThenReadAsByteArrayAsync, server.BytesUrl(OneMiB, contentLength: true)));

// ## 4 · Measure
//
// Each runs at three sizes, 16 KiB, 1 MiB and 16 MiB, chunked and with a Content-Length, on three
// runtimes: .NET 8 (S0's), .NET 9, and the one running this notebook. A runtime that is not installed
// is fetched from NuGet into `artifacts/dotnet` once.
//
// **Before you run it:** S0 measured about 5 MB per 1 MiB download for the naive code on .NET 8. On
// which runtime do you expect that to disappear, and what does a Content-Length change?

Cell(10);
IReadOnlyList<BenchmarkDotNet.Jobs.Job> jobs = Runtimes.All(MeasurementProfile.CurrentJob);
Console.WriteLine(Runtimes.Describe(jobs));
MeasurementResult results = Measure.Run("02-the-5mb-download", server, jobs, typeof(NaiveDownload));
int current = Environment.Version.Major; // lookups name a runtime: the rows hold three
display(results);

// **The mean column.** The cell below subtracts the Content-Length
// time from the chunked one at each size, and calls a difference within its error inconclusive.
// Where the cell finds chunked slower, a likely cause (not measured here) is the local server: the managed `HttpListener` writes
// each chunk's closing CRLF as a write of its own
// ([`HttpResponseStream.Managed.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.HttpListener/src/System/Net/Managed/HttpResponseStream.Managed.cs)),
// and [Nagle's algorithm](../../docs/glossary.md#nagle) on one side meeting delayed acknowledgement on
// the other can hold such a small write back for tens of milliseconds. That changes times, not
// allocations.

Cell(12);
// Chunked minus Content-Length on this runtime, size by size: a difference within its error is inconclusive.
foreach (int size in results.Where(r => r.RuntimeMajor == current).Select(r => r.PayloadBytes!.Value).Distinct().Order())
{
    foreach (string strategy in new[] { "Client_Send_GetByteArrayAsync", "GetByteArrayAsync" })
    {
        MeasuredRow chunked = results.Get(strategy, size, "Chunked", current), withLength = results.Get(strategy, size, "ContentLength", current);
        Console.WriteLine($"{ByteUnits.Format(size),7} {strategy,-30} chunked minus Content-Length: {TimeDifference.Between(chunked, withLength)}");
    }
}

// ## 5 · S0's 1 MiB, measured here and published
//
// One bar per runtime for each strategy, and S0's published .NET 8 bars beside them. Chunked rows
// carry S0's names, so they pair with S0's bars; S0's only known-length row is `KnownLength_UseArrayPool`, which reads once into a rented array (chapter 04).

Cell(14);
var oneMiB = results.Where(r => r.PayloadBytes == OneMiB).OrderBy(r => r.RuntimeMajor).ToList();
var s0 = PublishedFigure.Of("S0", "download").Where(f => f.Method is "Client_Send_GetByteArrayAsync" or "GetByteArrayAsync").ToList();
display(Charts.Allocations("02 · bytes allocated per 1 MiB download, by runtime", oneMiB, s0, label: r => r.Variant == "Chunked" ? r.Strategy : r.Label));

foreach (MeasuredRow row in oneMiB)
{
    Console.WriteLine($"{row.Label,-50} {row.Runtime,-14}: {ByteUnits.Format(row.AllocatedBytes),9} per download = {(double)row.AllocatedBytes / OneMiB:0.00} x the body");
}
foreach (PublishedFigure f in s0)
{
    Console.WriteLine($"{f.Method + " (published, chunked)",-50} {f.Runtime,-14}: {ByteUnits.Format(f.AllocatedBytes),9} per download = {(double)f.AllocatedBytes / OneMiB:0.00} x the body");
}

// S0's headline, measured: the naive chunked download on .NET 8 beside S0's figure.
PublishedFigure s0Naive = s0.Single(f => f.Method == "Client_Send_GetByteArrayAsync");
foreach (int major in Runtimes.Compared)
{
    if (!results.Runtimes.Any(r => r.StartsWith($".NET {major}.", StringComparison.Ordinal))) { Console.WriteLine($".NET {major}: not measured on this machine."); continue; }
    MeasuredRow naive = results.Get("Client_Send_GetByteArrayAsync", OneMiB, "Chunked", major);
    Console.WriteLine($"Naive 1 MiB chunked on {naive.Runtime}: {ByteUnits.Format(naive.AllocatedBytes)}, {100.0 * (naive.AllocatedBytes - s0Naive.AllocatedBytes) / s0Naive.AllocatedBytes:+0.0;-0.0}% against S0's {ByteUnits.Format(s0Naive.AllocatedBytes)} on .NET 8.");
}

// ## 6 · Where the bytes go
//
// **On .NET 8 and 9.** With the default completion option, `HttpClient.SendAsync` buffers the body
// before it returns
// ([`HttpClient.cs`](https://github.com/dotnet/runtime/blob/release/8.0/src/libraries/System.Net.Http/src/System/Net/Http/HttpClient.cs)).
// Without a length, that buffer is a `MemoryStream` that starts empty
// ([`HttpContent.cs`](https://github.com/dotnet/runtime/blob/release/8.0/src/libraries/System.Net.Http/src/System/Net/Http/HttpContent.cs)),
// and a `MemoryStream` that runs out of room grows to at least twice its capacity, or to what the
// write needs if that is more
// ([`MemoryStream.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Private.CoreLib/src/System/IO/MemoryStream.cs)).
// The next cell copies this server's 1 MiB chunked body into such a stream and prints every capacity
// it passes through: each is a new array, and the old one is garbage.

Cell(16);
using (HttpResponseMessage response = await http.GetAsync(server.BytesUrl(OneMiB), HttpCompletionOption.ResponseHeadersRead))
{
    var log = new GrowthLog();
    await response.Content.CopyToAsync(log);
    long grown = log.Capacities.Sum(capacity => (long)capacity);
    Console.WriteLine($"Capacities: {string.Join(", ", log.Capacities.Select(capacity => capacity.ToString("N0")))}");
    Console.WriteLine($"Their sum, {ByteUnits.Format(grown)}, plus the 1 MiB copy ReadAsByteArrayAsync returns: {ByteUnits.Format(grown + OneMiB)}.");
    if (results.Runtimes.Any(r => r.StartsWith(".NET 8.", StringComparison.Ordinal)))
    {
        Console.WriteLine($"Measured above on .NET 8, naive, 1 MiB chunked: {ByteUnits.Format(results.Get("Client_Send_GetByteArrayAsync", OneMiB, "Chunked", 8).AllocatedBytes)}.");
    }
}

// The first capacity is the stream's first write: what was left of the connection's 4 KiB read buffer
// after the headers and the chunk's size line
// ([`HttpConnection.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.Http/src/System/Net/Http/SocketsHttpHandler/HttpConnection.cs)).
// From there it at least doubles, past the body, and every array of 85,000 bytes or more lands on the
// large object heap (chapter 01). The capacities and the copy make up nearly all of the .NET 8 row, as
// the last two lines show. With a
// Content-Length the buffer is sized once, and the copy adds one more body.
//
// **On .NET 10.** dotnet/runtime PR #109642 reworked that buffering (`LimitArrayPoolWriteStream` in
// [`HttpContent.cs`](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http/src/System/Net/Http/HttpContent.cs)):
// a body of unknown length is collected in arrays rented from the shared pool and copied into one
// exact array at the end; with a known length up to 16 MiB, the exact array is allocated up front.
// What is left is one array for the buffered body and one for the copy `ReadAsByteArrayAsync`
// returns, whatever the framing: section 5's lines print each row as a multiple of the body, and chapter 04's sweep goes on to 64 MiB. The change shipped in
// .NET 10: .NET 9 still doubles. Issue #81628 ("Excessive
// allocations in HttpContent.ReadAsByteArrayAsync") is still open: the copy remains.
//
// A "-" in the Gen columns means no collection fell inside the one iteration BenchmarkDotNet counts
// them in, so a "-" does not prove the row cost no Gen2 collection.
//
// **`GetByteArrayAsync`** reads the headers first and streams the body into the array it will return
// ([`HttpClient.cs`](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http/src/System/Net/Http/HttpClient.cs)):
// on .NET 10 exactly the body's size when the length is known, pooled growth and one final exact
// array when it is not; .NET 8 grows a pooled buffer the same way
// ([`HttpClient.cs` in 8.0](https://github.com/dotnet/runtime/blob/release/8.0/src/libraries/System.Net.Http/src/System/Net/Http/HttpClient.cs)),
// so without a Content-Length it can cost more than one body when the shared pool has no array to lend (not measured apart). Its
// floor is the body itself: an API that returns a new `byte[]` cannot allocate less.
//
// ## 7 · The cost grows with the body

Cell(18);
display(Charts.SizeSweep("02 · bytes allocated per chunked download, by body size and runtime", results.Where(r => r.Variant == "Chunked").Select(r => r with { Variant = "" })));

foreach (MeasuredRow row in results.Where(r => r.PayloadBytes == 16 * OneMiB).OrderBy(r => r.Label).ThenBy(r => r.RuntimeMajor))
{
    Console.WriteLine($"16 MiB, {row.Label,-50} {row.Runtime,-14}: {ByteUnits.Format(row.AllocatedBytes),9} = {(double)row.AllocatedBytes / row.PayloadBytes!.Value:0.00} bytes per body byte");
}

// Lines that lie on one another hide each other on the chart: name them (within 2% at every size measured).
var lines = results.Where(r => r.Variant == "Chunked").GroupBy(r => $"{r.Strategy} on {r.Runtime}").ToList();
foreach (var (a, b) in lines.SelectMany((a, i) => lines.Skip(i + 1).Select(b => (a, b))))
{
    bool together = a.All(x => b.Any(y => y.PayloadBytes == x.PayloadBytes && Math.Abs(y.AllocatedBytes - x.AllocatedBytes) <= x.AllocatedBytes / 50));
    if (together) Console.WriteLine($"Drawn on top of each other: {a.Key} and {b.Key}.");
}

// Every line climbs with the body: an API that returns the body as a new array costs at least one
// body per request, on the large object heap from 85,000 bytes up. Chapter 03 stops buffering a body you
// stream, 04 removes the array itself.

// ## 8 · Your turn: the loop S0 should have written
//
// Chapter 04 shows S0's known-length download calling `ReadAsync` once and trusting it to fill the array.
// Write the loop it should have been, in `exercises/E02_ReadLoop.cs`: read until the destination is
// full or the body ends. The check feeds it a body a few bytes per read; the measurement runs S0's
// known-length download at 1 MiB with your loop.
//
// The `Exercise02.Run` cell builds `exercises/`, checks your code in its own process, then measures it beside this chapter's strategies. Until you write it, it reports "exercise not done
// yet". Edit, save, run the cell again: it rebuilds.

// **Predict, then run.** With one rented array of the Content-Length and your loop filling it, how
// many bytes per download, and what accounts for them?

Cell(22);
long bytesGuess = 0; // bytes per download: your guess

Cell(23);
ExerciseResult e02 = Exercise02.Run(server, size: OneMiB);
display(e02);

Cell(24);
display(e02.Chart(results));
Console.WriteLine(e02.Compare(bytesGuess));

Cell(25);
http.Dispose();
await server.DisposeAsync();
Console.WriteLine("Server stopped.");

// ## Recap
//
// - The naive `SendAsync` + `ReadAsByteArrayAsync` buffers the body, then copies it. Without a
//   Content-Length, .NET 8 and 9 grow that buffer by doubling, on the large object heap from 85,000
//   bytes; .NET 10
//   collects it in pooled arrays. Measure on the runtime you ship.
// - A Content-Length lets the runtime size its buffer once; .NET 10 gets close to that even without one.
// - `GetByteArrayAsync` costs at least one body per call (section 7 prints bytes per body byte, with and without a Content-Length): the floor for any API that returns `byte[]`.
// - The cost grows with the body: section 7 prints bytes per body byte at 16 MiB.
//
// **Next:** [03 · Don't buffer what you stream: HttpCompletionOption](../03-httpcompletionoption.ipynb)
//
// *Sources: S0, "Removing Memory Allocations in HTTP Requests Using ArrayPool&lt;T&gt;", xaml.dev (2023),
// https://www.xaml.dev/post/removing-memory-allocations-in-http-requests-using-arraypools; dotnet/runtime
// PR #109642 (https://github.com/dotnet/runtime/pull/109642) and issue #81628
// (https://github.com/dotnet/runtime/issues/81628).*

// Declared in cell 16; a program's types follow its statements.
// A MemoryStream that notes each capacity it grows to.
sealed class GrowthLog : MemoryStream
{
    public List<int> Capacities { get; } = new();

    public override int Capacity
    {
        get => base.Capacity;
        set { Capacities.Add(value); base.Capacity = value; }
    }
}
