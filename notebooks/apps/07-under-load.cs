// Chapter 07-under-load as a .NET file-based app, written from notebooks/07-under-load.ipynb by `dotnet run --project tools/Publish/GenerateApps`.
// To change the chapter itself, edit the notebook and run that command again (a test fails while the two differ).
// Your own lines are yours to edit here: a guess the text asks for, a value to try.
//
// Run it from anywhere in the clone:  dotnet run notebooks/apps/07-under-load.cs          (the quick profile: add -- --quick)
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
using System.Buffers;
using System.Net.Http;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Load;
using PooledHttp.Workshop.Exercising;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;
using static PooledHttp.Workshop.Notebooks.ChapterApp; // display(...), HTML(...), Start, Cell

Start("07-under-load", args);

// # 07 · Under load
//
// **What you will learn**
// - why "64 downloads in flight" on loopback can mean far fewer at once, and how to make it real;
// - what the naive and the pooled read cost a process when bodies really overlap: bytes, Gen2
//   collections, GC pauses, peak working set;
// - how a pool's budget decides whether the pooled read stays cheap through full collections under load, and
//   how to size one.
//
// This chapter goes beyond the sources.

// ## 1 · Set up
//
// The first cell builds the helpers; the second loads them, the namespaces this chapter uses and plotly.js.

// Cell 3, the notebook's setup (#load "workshop.csx" builds the kit into artifacts/notebook-bin): the #:project line at the top does it here.

// Cell 4, the notebook's setup (#load "kit.csx" references the kit): the #:project line at the top does it here.

Cell(5);
const int OneMiB = 1024 * 1024;
var server = LocalServer.Start();
int[] inFlight = { 1, 8, 64 };
bool quick = MeasurementProfile.Current == "quick"; // fewer downloads per run
Console.WriteLine($"Serving on {server.BaseAddress}");

// ## 2 · Predict first
//
// 64 downloads of 1 MiB, each sent without a Content-Length, are in flight at the same time. Each is
// read with `GetPooledAsync` on the library's default pool. Before anything is measured, write down two
// numbers: how many KiB one pooled download allocates, and how many full (Gen2) collections the naive
// downloads (`SendAsync` + `ReadAsByteArrayAsync`) cause at the same load.

Cell(7);
double pooledKiBGuess = 0; // KiB allocated per pooled download, 64 in flight: your guess
int naiveGen2Guess = 0;    // Gen2 collections in 512 naive downloads, 64 in flight: your guess

// ## 3 · Is it load?
//
// On loopback, a body written in one go arrives at once, so 64 downloads started together may hardly
// overlap. The server counts the bodies it is writing at the same moment (`server.BodiesInFlight`). Below, the probe keeps 64 in flight
// twice: each body in one write, then each in 16 writes 2 ms apart (`Pace.Network`), as a network
// spreads a body over time.

Cell(9);
LoadProbe probe = await LoadProbe.BuildAsync();
int overlapDownloads = quick ? 128 : 256;
LoadResult oneWrite = await probe.RunAsync(LoadStrategies.Pooled, server, OneMiB, contentLength: false, concurrency: 64, overlapDownloads);
LoadResult paced = await probe.RunAsync(LoadStrategies.Pooled, server, OneMiB, contentLength: false, concurrency: 64, overlapDownloads, Pace.Network);
Console.WriteLine($"64 started together, each body in one write:        at most {oneWrite.PeakOverlap,2} bodies were being sent at once.");
Console.WriteLine($"64 started together, each body in 16 paced writes:  at most {paced.PeakOverlap,2} bodies were being sent at once.");

// The load is what the server really sends at once, not what the client starts. Every measurement
// below uses paced bodies and prints its peak overlap.
//
// ## 4 · The naive read and the pooled read, really overlapping
//
// `LoadProbe` (`helpers/PooledHttp.Workshop.LoadProbe`) downloads the same 1 MiB body many times with a fixed number in
// flight, after a warm-up, in a process of its own per configuration. It checks every body and
// reports: bytes allocated, collections, GC pause time
// (`GC.GetTotalPauseDuration`) and peak working set.

Cell(11);
var load = new List<LoadResult>();
foreach (int n in inFlight)
{
    int downloads = n == 1 ? (quick ? 32 : 64) : (quick ? 256 : 512);
    foreach (string strategy in new[] { LoadStrategies.Naive, LoadStrategies.Pooled })
    {
        LoadResult result = await probe.RunAsync(strategy, server, OneMiB, contentLength: false, n, downloads, Pace.Network);
        load.Add(result);
        Console.WriteLine($"{strategy,-6} {n,2} in flight (peak overlap {result.PeakOverlap,2}): {ByteUnits.Format(result.AllocatedPerDownload),10} per download, {result.Gen2,3} Gen2 in {downloads}, {result.GcPauseMs,6:0.0} ms paused, peak {ByteUnits.Format(result.PeakWorkingSetBytes)}");
    }
}
display(HTML(LoadProbe.ToHtml(load)));

// Now compare with what you wrote down in section 2.

Cell(13);
LoadResult Run(string strategy, int n) => load.Single(r => r.Strategy == strategy && r.Concurrency == n);
LoadResult pooled64 = Run(LoadStrategies.Pooled, 64), naive64 = Run(LoadStrategies.Naive, 64);
Console.WriteLine($"Pooled, 64 in flight: you guessed {pooledKiBGuess:0.#} KiB per download; it allocated {pooled64.AllocatedPerDownload / 1024:0.#} KiB.");
Console.WriteLine($"Naive, 64 in flight: you guessed {naiveGen2Guess} Gen2 collections; {naive64.Downloads} downloads caused {naive64.Gen2}.");

var categories = inFlight.Select(n => n.ToString()).ToList();
double[] Series(string strategy, Func<LoadResult, double> metric) => inFlight.Select(n => metric(Run(strategy, n))).ToArray();
Dictionary<string, double[]> Both(Func<LoadResult, double> metric) => new() { ["naive"] = Series(LoadStrategies.Naive, metric), ["pooled"] = Series(LoadStrategies.Pooled, metric) };
display(Charts.Grouped("07 · KiB allocated per 1 MiB download, by downloads in flight (paced, chunked)", "downloads in flight", "KiB per download", categories, Both(r => r.AllocatedPerDownload / 1024)));
display(Charts.Grouped("07 · Gen2 collections per 100 measured downloads", "downloads in flight", "Gen2 per 100 downloads", categories, Both(r => 100.0 * r.Gen2 / r.Downloads)));

// **Reading it.** The naive read buffers each body, then copies it (chapter 02), on the large object
// heap, which only Gen2 collects (chapter 01). The pooled read returns its array when the lease is
// disposed, so a warm pool can serve the next download. The lines below set each figure against a body.

Cell(15);
double naiveBodies = load.Where(r => r.Strategy == LoadStrategies.Naive).Min(r => r.AllocatedPerDownload) / OneMiB;
LoadResult worstPooled = load.Where(r => r.Strategy == LoadStrategies.Pooled).MaxBy(r => r.AllocatedPerDownload)!;
Console.WriteLine($"Every naive download allocated at least {naiveBodies:0.00} times its 1 MiB body.");
Console.WriteLine($"The pooled read's largest figure: {ByteUnits.Format(worstPooled.AllocatedPerDownload)} per download at {worstPooled.Concurrency} in flight, {ByteUnits.Format(worstPooled.AllocatedBytes)} over its {worstPooled.Downloads} downloads"
    + (worstPooled.AllocatedBytes < OneMiB
        ? ": less than one body in all, so no download allocated its body."
        : $": enough for {worstPooled.AllocatedBytes / OneMiB} bodies in all.")
    + $" Its rents that found no free array and allocated one: {worstPooled.PoolMisses:N0}.");
Console.WriteLine($"Gen2 collections, naive: {string.Join(", ", inFlight.Select(n => $"{Run(LoadStrategies.Naive, n).Gen2} at {n}"))}; pooled: {string.Join(", ", inFlight.Select(n => $"{Run(LoadStrategies.Pooled, n).Gen2} at {n}"))}.");

// Gen2 counts can differ between loads: when to collect is the GC's decision. The pause column
// shows how long they stopped the process.
//
// ## 5 · Peak working set against bodies in flight
//
// A download holds its body while it reads it, pooled or not, so N bodies of 1 MiB in flight need at
// least N MiB. The chart puts that floor beside the peak working set of both reads.

Cell(17);
var workingSet = Both(r => r.PeakWorkingSetBytes / (double)OneMiB);
workingSet["bodies in flight × 1 MiB"] = inFlight.Select(n => (double)n).ToArray();
display(Charts.Grouped("07 · peak working set (MiB), paced 1 MiB downloads", "downloads in flight", "MiB", categories, workingSet));
foreach (int n in inFlight)
{
    Console.WriteLine($"{n,2} in flight: naive peak {ByteUnits.Format(Run(LoadStrategies.Naive, n).PeakWorkingSetBytes)}, pooled peak {ByteUnits.Format(Run(LoadStrategies.Pooled, n).PeakWorkingSetBytes)} ({Run(LoadStrategies.Naive, n).PeakWorkingSetBytes / (double)Run(LoadStrategies.Pooled, n).PeakWorkingSetBytes:0.0}×).");
}

// Compare each bar with the floor. The pooled process keeps its arrays in the pool between downloads;
// the table's "heap after" column shows what each process still holds after a full collection. The
// naive process holds arrays too: on .NET 10 its buffering rents from `ArrayPool<byte>.Shared`
// ([`HttpContent.cs`](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http/src/System/Net/Http/HttpContent.cs)).
//
// ## 6 · 64 bodies of 8 MiB
//
// The default pool keeps at most `BodyPool.MaxRetainedBytes` in free arrays, whatever their sizes. Now
// 64 downloads of 8 MiB start, again without a Content-Length. Predict before you run the next cells:
// does the default pool still hold this load?

Cell(19);
bool defaultPoolHoldsItGuess = true; // your guess: does the default pool hold 64 bodies of 8 MiB in flight?

// The cell first reads one such body through a pool that logs its rents. Then two reads of the load: on the default pool, and on the runtime's `ArrayPool<byte>.Shared`,
// which has no budget in bytes you can set.

Cell(21);
var log = new RentLog(BodyPool.Shared);
using (var client = new HttpClient())
using (PooledBuffer one = await client.GetPooledAsync(server.PacedBytesUrl(8 * OneMiB, contentLength: false, Pace.Network), pool: log))
{
    Console.WriteLine($"One {ByteUnits.Format(one.Length)} body without a Content-Length rented: {string.Join(", ", log.Sizes.Select(s => ByteUnits.Format(s)))}.");
}
long lastArray = log.Sizes.Last();
Console.WriteLine($"64 in flight hold 64 such arrays: {ByteUnits.Format(64 * lastArray)}, against the default budget of {ByteUnits.Format(BodyPool.MaxRetainedBytes)}.");

var past = new List<LoadResult>();
foreach (string strategy in new[] { LoadStrategies.Pooled, LoadStrategies.PooledOnShared })
{
    past.Add(await probe.RunAsync(strategy, server, 8 * OneMiB, contentLength: false, concurrency: 64, quick ? 128 : 256, Pace.Network));
}
display(HTML(LoadProbe.ToHtml(past)));
LoadResult onDefault = past[0], onShared = past[1];
Console.WriteLine($"You guessed the default pool {(defaultPoolHoldsItGuess ? "holds" : "does not hold")} this load. It allocated {ByteUnits.Format(onDefault.AllocatedPerDownload)} per download (peak overlap {onDefault.PeakOverlap})"
    + (onDefault.AllocatedPerDownload > 64 * 1024 ? ": bodies that did not fit were allocated." : ".")
    + $" {onDefault.PoolReclaims:N0} rents found no free array and took back one the pool had let go of; {onDefault.Gen2} full collections came.");
Console.WriteLine($"ArrayPool<byte>.Shared: {ByteUnits.Format(onShared.AllocatedPerDownload)} per download (peak overlap {onShared.PeakOverlap}), and the heap holds {ByteUnits.Format(onShared.HeapAfterBytes)} afterwards, with no budget of yours.");

// A budget bounds what the pool keeps through a full collection, not what the process uses. Past it
// nothing fails: the pool lets go of an array it has no room for, and a rent that finds no free array takes
// a let-go array back if the GC has not collected it yet
// ([`BoundedArrayPool.cs`](../../helpers/PooledHttp/Buffers/BoundedArrayPool.cs)). Read the bytes with the
// Gen2 column: taken-back arrays cost nothing only until a full collection comes. "Heap after" is the managed
// heap after the run and a full collection: what each process still holds, pool included. A body without a
// Content-Length grows its array fourfold from 16 KiB
// ([`PooledBodyReader.cs`](../../helpers/PooledHttp/Http/PooledBodyReader.cs)), so, as the first line
// shows, an 8 MiB body ends in an array larger than itself.
//
// ## 7 · Your turn: size the pool
//
// In `exercises/E07_SizeThePool.cs`, return the pool a service should use for 64 downloads of 8 MiB in
// flight at once, without a Content-Length. The check reads 64 overlapping downloads on your pool (bytes exact),
// then rents 64 arrays of 8 MiB at once, twice, with a full collection between, and counts the second
// round's rents that found no free array; it accepts only a `BoundedArrayPool` whose budget is at most four times the bodies in flight. Then
// BenchmarkDotNet measures your pool; section 9 charts it beside the chapter's rows, against a goal of
// at most 16 KiB allocated per download.
//
// The call builds `exercises/` and checks your code in a process of its own; until you write it, it
// reports "exercise not done yet".

Cell(23);
ExerciseResult e07 = Exercise07.Run(server);
display(e07);

// ## 8 · The library's answer
//
// `BodyPool.Create(bodiesInFlight, typicalBodySize)` sizes a pool from the downloads in flight times a
// typical body, plus half again for larger ones, and starts a body without a Content-Length in an array
// of the typical size. Compare it with yours:

Cell(25);
BoundedArrayPool sizedForTheLoad = BodyPool.Create(bodiesInFlight: 64, typicalBodySize: 8 * OneMiB);
Console.WriteLine($"BodyPool.Create(64, 8 MiB): a budget of {ByteUnits.Format(sizedForTheLoad.MaxRetainedBytes)}.");
LoadResult onSized = await probe.RunAsync(LoadStrategies.PooledSized, server, 8 * OneMiB, contentLength: false, concurrency: 64, quick ? 128 : 256, Pace.Network);
past.Insert(1, onSized);
display(HTML(LoadProbe.ToHtml(past)));
long kept = onSized.PoolRetainedBytes ?? 0;
Console.WriteLine($"Sized for the load: {ByteUnits.Format(onSized.AllocatedPerDownload)} per download (peak overlap {onSized.PeakOverlap}), {ByteUnits.Format(kept)} kept in the pool afterwards: room for {kept / (8 * OneMiB)} arrays of 8 MiB.");
display(Charts.Grouped("07 · 64 paced 8 MiB downloads in flight: allocated and kept", "pool", "MiB", past.Select(r => r.Strategy).ToList(),
    new Dictionary<string, double[]>
    {
        ["allocated per 100 downloads"] = past.Select(r => r.AllocatedPerDownload * 100 / OneMiB).ToArray(),
        ["heap after the run"] = past.Select(r => r.HeapAfterBytes / (double)OneMiB).ToArray(),
    }));

// ## 9 · The same batches in BenchmarkDotNet
//
// `UnderLoad` makes one operation a batch of 64 paced downloads started together, of 1 MiB and 8 MiB:
// the naive read, the pooled read on the default pool, and on a pool sized for the batch. The chart
// divides each batch's bytes by 64. Each benchmark hands one of the series' downloads (chapter 02's
// naive read, chapter 04's pooled read) to this batch, run here once:

Cell(27);
// Measured as Downloads.BatchAsync
static async Task<long> BatchAsync(int concurrency, Func<Task<int>> download)
{
    var batch = new Task<int>[concurrency];
    for (int i = 0; i < batch.Length; i++)
    {
        batch[i] = download();
    }

    long total = 0;
    foreach (int length in await Task.WhenAll(batch))
    {
        total += length;
    }

    return total;
}

using (var client = new HttpClient())
{
    Uri paced1MiB = server.PacedBytesUrl(OneMiB, contentLength: false, Pace.Network);
    server.BodiesInFlight.ResetPeak();
    long naiveTotal = await BatchAsync(UnderLoad.InFlight, () => Downloads.SendThenReadAsByteArrayAsync(client, paced1MiB));
    int naivePeak = server.BodiesInFlight.ResetPeak();
    long pooledTotal = await BatchAsync(UnderLoad.InFlight, () => Downloads.PooledReadAsync(client, paced1MiB));
    int pooledPeak = server.BodiesInFlight.ResetPeak();
    Console.WriteLine($"A batch of {UnderLoad.InFlight}, {(long)UnderLoad.InFlight * OneMiB:N0} bytes expected: naive {naiveTotal:N0} (peak overlap {naivePeak}), pooled {pooledTotal:N0} (peak overlap {pooledPeak}).");
}

Cell(28);
MeasurementResult results = Measure.Run("07-under-load", server, typeof(UnderLoad));
int benchmarkPeak = server.BodiesInFlight.ResetPeak();
display(results);
Console.WriteLine($"While BenchmarkDotNet ran its batches, the server wrote at most {benchmarkPeak} bodies at once (peak overlap).");

int[] sizes = { OneMiB, 8 * OneMiB };
double PerDownload(string strategy, int size) => results.Get(strategy, size).AllocatedBytes / (double)UnderLoad.InFlight / 1024;
display(Charts.Grouped("07 · KiB allocated per download, batches of 64 in flight", "body", "KiB per download", sizes.Select(s => ByteUnits.Format(s)).ToList(),
    new Dictionary<string, double[]>
    {
        ["naive"] = sizes.Select(s => PerDownload("Naive", s)).ToArray(),
        ["pooled, default pool"] = sizes.Select(s => PerDownload("Pooled", s)).ToArray(),
        ["pooled, sized pool"] = sizes.Select(s => PerDownload("PooledSized", s)).ToArray(),
    }));
Console.WriteLine("Per download, batches of 64 against the probe's 64 in flight (sections 4, 6 and 8):");
foreach ((string strategy, int size, LoadResult probed) in new[] { ("Pooled", OneMiB, pooled64), ("Pooled", 8 * OneMiB, onDefault), ("PooledSized", 8 * OneMiB, onSized) })
{
    Console.WriteLine($"  {strategy,-11} {ByteUnits.Format(size),5}: {ByteUnits.Format(results.Get(strategy, size).AllocatedBytes / (double)UnderLoad.InFlight),10} in batches, {ByteUnits.Format(probed.AllocatedPerDownload),10} in the probe");
}

// **Reading it.** The last lines put the batches beside the probe, and they need not agree. The probe
// keeps up to 64 downloads going, one starting as another ends (peak overlap in its rows); a batch's 64 start together and give
// everything back at once. Past the budget (the default pool at 8 MiB) the pool lets go of what it has no room for, and
// BenchmarkDotNet's full collection before every iteration
// ([`Engine.cs`](https://github.com/dotnet/BenchmarkDotNet/blob/v0.15.8/src/BenchmarkDotNet/Engines/Engine.cs))
// takes it: each iteration allocates again what the budget did not keep, as a service does at each full collection. Within the budget, why batch and probe differ is not measured here. The exercise's goal is
// judged on the batches.
//
// The Gen columns are a sample: BenchmarkDotNet counts collections in one iteration, which holds a
// batch or two of this length (`MeasuredRow.Gen2`), so do not read them here. Your pool's chart:

Cell(30);
display(e07.Chart(results));

Cell(31);
await server.DisposeAsync();
Console.WriteLine("Server stopped.");

// ## Recap
//
// - Load is load only when bodies overlap: on loopback, pace the server and count what it really sends
//   at once.
// - The naive read allocates its body more than once per download and causes full collections at every
//   load; within its pool's budget the pooled read allocates a small part of a body per download. Past
//   it, the same until a full collection takes what the pool let go of, then megabytes (section 9).
// - A budget is the most the pool keeps through a full collection. Size it from the load:
//   `BodyPool.Create(bodiesInFlight, typicalBodySize)`.
//
// **Next:** [08 · The journey](../08-the-journey.ipynb)

// Declared in cell 21; a program's types follow its statements.
// A pool that passes every rent to the default pool and notes the size it handed out.
sealed class RentLog(ArrayPool<byte> inner) : ArrayPool<byte>
{
    public List<int> Sizes { get; } = new();
    public override byte[] Rent(int minimumLength) { byte[] array = inner.Rent(minimumLength); Sizes.Add(array.Length); return array; }
    public override void Return(byte[] array, bool clearArray = false) => inner.Return(array, clearArray);
}
