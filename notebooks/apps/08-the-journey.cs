// Chapter 08-the-journey as a .NET file-based app, written from notebooks/08-the-journey.ipynb by `dotnet run --project tools/Publish/GenerateApps`.
// To change the chapter itself, edit the notebook and run that command again (a test fails while the two differ).
// Your own lines are yours to edit here: a guess the text asks for, a value to try.
//
// Run it from anywhere in the clone:  dotnet run notebooks/apps/08-the-journey.cs          (the quick profile: add -- --quick)
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
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;
using static PooledHttp.Workshop.Notebooks.ChapterApp; // display(...), HTML(...), Start, Cell

Start("08-the-journey", args);

// # 08 · The journey
//
// **What you will learn**
// - chapter 04's ladder on one chart: seven ways of reading a 1 MiB response, from the naive download
//   to the pooled read, on .NET 8 and the runtime you have, beside the .NET 8 figures S0 published;
// - the same for request bodies of about 2 MB, beside S2's figures;
// - which API or helper to reach for, when, and at what price;
// - what .NET 10 fixed for you, and what still needs your code.
//
// The response ladder runs on two runtimes; [the reference run](../../data/results/reference/MACHINE.md) lists how long each chapter took.

// ## 1 · Set up
//
// Two cells: the first builds the helpers library, the second loads it, names the namespaces this
// chapter uses (the kernel imports only `System`, `System.Text`, `System.Collections(.Generic)`,
// `System.Threading.Tasks` and `System.Linq` for you) and loads plotly.js for the charts.

// Cell 3, the notebook's setup (#load "workshop.csx" builds the kit into artifacts/notebook-bin): the #:project line at the top does it here.

// Cell 4, the notebook's setup (#load "kit.csx" references the kit): the #:project line at the top does it here.

Cell(5);
var server = LocalServer.Start();
// .NET 8, where S0 measured, and yours; chapter 02 has .NET 9 between them.
IReadOnlyList<BenchmarkDotNet.Jobs.Job> jobs = Runtimes.SourcesAndCurrent(MeasurementProfile.CurrentJob);
Console.WriteLine(Runtimes.Describe(jobs));
int current = Environment.Version.Major;

// ## 2 · Measure every strategy once more
//
// Two runs: `PooledDownload` (chapter 04's ladder: 1 MiB without a Content-Length, S0's setup, except
// S0's known-length read, which gets the same body with one) on .NET 8 and this runtime, so the journey
// starts where S0 started; then `JourneyRequestBodies` (chapter 05's strategies at about 2 MB) on this
// runtime.

Cell(7);
MeasurementResult responses = Measure.Run("08-the-journey", server, jobs, typeof(PooledDownload));
MeasurementResult requests = Measure.Run("08-the-journey", server, typeof(JourneyRequestBodies));
display(responses);
display(requests);

// ## 3 · Reading a 1 MiB response: from 5 MB to a few KiB

Cell(9);
Plotly.NET.GenericChart journey = Charts.Allocations("From 5 MB to a few KiB: bytes allocated to read a 1 MiB response", responses, PublishedFigure.Of("S0", "download"));
display(journey);

MeasuredRow naive = responses.Get("Client_Send_GetByteArrayAsync", runtime: current);
MeasuredRow oneLiner = responses.Get("GetByteArrayAsync", runtime: current);
MeasuredRow pooled = responses.Get("PooledRead", runtime: current);
PublishedFigure naive8 = PublishedFigure.Of("S0", "download").Single(f => f.Method == "Client_Send_GetByteArrayAsync");
Console.WriteLine($"Naive download: {ByteUnits.Format(naive8.AllocatedBytes)} on .NET 8 (S0), {ByteUnits.Format(naive.AllocatedBytes)} here ({naive.Runtime}).");
Console.WriteLine($"GetByteArrayAsync: {ByteUnits.Format(oneLiner.AllocatedBytes)}. Pooled read: {ByteUnits.Format(pooled.AllocatedBytes)}; the naive download here allocates {(double)naive.AllocatedBytes / pooled.AllocatedBytes:N0} times as much, and S0's published .NET 8 figure for it is {(double)naive8.AllocatedBytes / pooled.AllocatedBytes:N0} times this pooled read.");
foreach (MeasuredRow row in responses.Where(r => r.Strategy is "Client_Send_GetByteArrayAsync" or "PooledRead").OrderBy(r => r.Strategy).ThenBy(r => r.RuntimeMajor))
{
    Console.WriteLine($"{row.Strategy,-32} {row.Runtime,-14} {ByteUnits.Format(row.AllocatedBytes),10}");
}

// Compare S0's write stream (`SendAsync_ArrayPoolWriteStream`) on the two runtimes in the first table.
// It copies the same chunked stream as the pooled read does; what it alone does is rent its doubling
// arrays from `ArrayPool<byte>.Shared`. BenchmarkDotNet counts bytes in one extra iteration
// (`MeasurementProfile`), and a rent that finds no free array there counts a fresh one. That comes
// and goes from run to run, on any runtime: [docs/measurements.md](../../docs/measurements.md#measuring-profiles-and-exercise-goals-the-figures-behind-their-settings)
// records runs where this row stood far higher, and chapter 04a explains why the shared pool misses.
// The naive download buffers in arrays from the shared pool too on .NET 10 (chapter 02, section 6), so its row can jump the same way.
// So if the write stream's row on one runtime stands far above the other's in a run, suspect a rent that missed the shared pool before a runtime that costs more.

// ## 4 · Sending about 2 MB of JSON

Cell(12);
display(Charts.Allocations("Bytes allocated to POST about 2 MB of JSON (and the same books as protobuf)", requests, PublishedFigure.Of("S2", "request-content").Where(f => f.PayloadBytes == 2_000_000)));
MeasuredRow stringBody = requests.Single(r => r.Strategy == "Baseline");
MeasuredRow pooledBody = requests.Single(r => r.Strategy == "PooledJsonContent");
Console.WriteLine($"Newtonsoft to a string: {ByteUnits.Format(stringBody.AllocatedBytes)} per POST; the helpers' pooled content: {ByteUnits.Format(pooledBody.AllocatedBytes)}.");

// ## 5 · Which to use when
//
// | you need | use | allocates per request (this run, 1 MiB or 2 MB, unless a chapter is named) | trade-off |
// |---|---|---|---|
// | to process a response as it arrives (parse, hash, forward) | `ResponseHeadersRead` + a read loop, or `GetFromJsonAsync` / `DeserializeAsync` on the stream | a few KiB plus what you build (chapter 03) | the body is never whole; dispose the response promptly |
// | the whole body as a `byte[]` you keep | `GetByteArrayAsync` | one body | cannot go below the body's size; in the large object heap from 85,000 bytes |
// | the whole body, briefly (parse, then discard) | the helpers' `GetPooledAsync` | a few KiB over plain HTTP/1.1 (chapter 04's sweep for other sizes, up to the 64 MiB default limit); over TLS and HTTP/2, chapter 09 measures what it costs | you own a lease: dispose it once, never keep the memory |
// | a JSON request body | `JsonContent` / `PostAsJsonAsync` | a few KiB | chunked: no Content-Length; serializes again on every send (chapter 05) |
// | a JSON request body with a Content-Length, replayable | the helpers' `PooledJsonContent` | a few KiB | serializes up front; holds a pooled buffer until the content is disposed |
// | anything with `SendAsync` + `ReadAsByteArrayAsync`, or a JSON string | nothing: replace it | two bodies or more | the cost grows with the body (chapter 02, section 7) and lands in the large object heap from 85,000 bytes (chapter 01) |
//
// Small bodies (a few kilobytes) are the exception to all of this: the request's own cost (the pooled rows above) is about as much as the body, so pooling saves little (chapter 04's section 8 prints the gap at 1 KiB) and the simplest code is the better trade.
//
// In a service, the same choices go into a typed client from `IHttpClientFactory`, and JSON can be
// read straight from the pooled bytes; chapter 09 measures both, with gzip, HTTPS and HTTP/2 bodies,
// and watches a running process through the diagnostics channel `dotnet-counters` uses.
//
// ## 6 · What .NET 10 fixed, and what is still yours
//
// - **Fixed by the runtime.** Buffering a response of unknown length no longer doubles and copies
//   its way up ([dotnet/runtime PR #109642](https://github.com/dotnet/runtime/pull/109642)): section 3
//   prints the naive download on both runtimes. S3 (2020) cut the bytes allocated in its HTTP/2 POST test (its published percentages are in chapter 06).
//   `ArrayPool<byte>.Shared` keeps arrays up to 2^30 elements today (on .NET Core 2.0 a 10 MB rent still allocated: S1's 10 MB row; chapter 01 measures it on your runtime;
//   [`SharedArrayPool.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Private.CoreLib/src/System/Buffers/SharedArrayPool.cs)).
//   It has no budget in bytes you can set, though: chapter 07 §6 shows what a process still held after
//   a load on it ("heap after"). That is why the helpers have `BodyPool`, whose budget you choose.
// - **Still yours.** `ReadAsByteArrayAsync` still copies the buffered body (issue #81628 is open), and
//   any API that returns a new array or string costs at least the body, in the large object heap
//   from 85,000 bytes. Choosing `ResponseHeadersRead`, streaming or pooling, disposing every
//   response, reading until a known length is full, and returning each rented array exactly once:
//   none of that is something a runtime upgrade does for you.

Cell(14);
await server.DisposeAsync();
Console.WriteLine("Server stopped.");

// ## Recap
//
// - On this runtime the naive read of a 1 MiB body still costs more than the body, if less than on
//   .NET 8; `GetByteArrayAsync` costs one body; the pooled read a few kilobytes (section 3 prints each).
// - Sending 2 MB of JSON costs megabytes through a string and a few kilobytes through pooled or
//   streamed content.
// - Pool large, short-lived buffers you own; stream what you can process as it arrives; keep the
//   simple code for small bodies.
//
// **Next:** [09 · Your service](../09-your-service.ipynb): the pooled read in a service.
//
// *Sources: S0, "Removing Memory Allocations in HTTP Requests Using ArrayPool&lt;T&gt;", xaml.dev (2023),
// https://www.xaml.dev/post/removing-memory-allocations-in-http-requests-using-arraypools; S1, Adam
// Sitnik, "Pooling large arrays with ArrayPool", https://adamsitnik.com/Array-Pool/; S2, Devindran
// Ramadass, "How to improve memory allocation when creating HttpContent",
// https://hashnode.devindran.com/how-to-improve-memory-allocation-when-creating-httpcontent; S3,
// dotnet/runtime PR #32557, https://github.com/dotnet/runtime/pull/32557; S4, Steve Gordon, "Using
// HttpCompletionOption to Improve HttpClient Performance in .NET",
// https://www.stevejgordon.co.uk/using-httpcompletionoption-responseheadersread-to-improve-httpclient-performance-dotnet*
