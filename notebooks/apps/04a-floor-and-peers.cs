// Chapter 04a-floor-and-peers as a .NET file-based app, written from notebooks/04a-floor-and-peers.ipynb by `dotnet run --project tools/Publish/GenerateApps`.
// To change the chapter itself, edit the notebook and run that command again (a test fails while the two differ).
// Your own lines are yours to edit here: a guess the text asks for, a value to try.
//
// Run it from anywhere in the clone:  dotnet run notebooks/apps/04a-floor-and-peers.cs          (the quick profile: add -- --quick)
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
using System.IO.Pipelines;
using System.IO;
using System.Net.Http;
using CommunityToolkit.HighPerformance.Buffers;
using Microsoft.IO;
using PooledHttp.Content;
using PooledHttp.Http;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Load;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;
using PooledHttp.Workshop.Trying;
using static PooledHttp.Workshop.Notebooks.ChapterApp; // display(...), HTML(...), Start, Cell

Start("04a-floor-and-peers", args);

// # 04a · Appendix: the floor and the peers
//
// An optional companion to [chapter 04](../04-pooled-buffers.ipynb), answered with this run's figures.
//
// **What you will learn**
// - what the pooled read allocates beside the **floor**, a plain read loop with no buffer of its own
//   per download, and why the floor is a reference point rather than a lower bound;
// - what the libraries a reader might reach for instead, `RecyclableMemoryStream`, CommunityToolkit's
//   `ArrayPoolBufferWriter<byte>` and a `PipeReader`, allocate from 64 KiB to 64 MiB;
// - why BenchmarkDotNet's Gen2 column can disagree with a long count of the same downloads.

// ## 1 · Set up

// Cell 3, the notebook's setup (#load "workshop.csx" builds the kit into artifacts/notebook-bin): the #:project line at the top does it here.

// Cell 4, the notebook's setup (#load "kit.csx" references the kit): the #:project line at the top does it here.

Cell(5);
const int OneMiB = 1024 * 1024;
var server = LocalServer.Start();
Console.WriteLine($"Serving on {server.BaseAddress}");

// ## 2 · The floor and the three peers
//
// The **floor** reads headers first, then loops `ReadAsync` 16 KiB at a time into one array the
// benchmark allocates once, in its setup, outside the count: no pool, no copy, no buffer of its own per
// download. What it allocates is its own async state and `HttpClient`'s: the request, the response, and
// a little each time a read finds the connection's buffer empty and has to wait. The chunked stream's `ReadAsyncCore` and
// the connection's `FillAsync` are async methods
// ([ChunkedEncodingReadStream.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http/src/System/Net/Http/SocketsHttpHandler/ChunkedEncodingReadStream.cs),
// [HttpConnection.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http/src/System/Net/Http/SocketsHttpHandler/HttpConnection.cs)),
// and a call to one that suspends allocates its state machine once
// ([AsyncTaskMethodBuilderT.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Private.CoreLib/src/System/Runtime/CompilerServices/AsyncTaskMethodBuilderT.cs),
// `GetStateMachineBox`).
//
// So the floor is a reference point, not a lower bound. A strategy that reads another way takes
// another path through the runtime: the pooled read copies a chunked body with `CopyToAsync`, which the chunked stream overrides with one async method for the whole body, so a wait costs `FillAsync`'s state but not `ReadAsyncCore`'s as well (the same file), and can come
// in under the floor. Section 3 prints the gap with its sign.

Cell(7);
const int FloorReadSize = PooledBodyReader.ReadSize;
const int ReadSize = PooledPeers.ReadSize;

// Measured as Downloads.FloorAsync
static async Task<int> FloorAsync(HttpClient client, Uri url, byte[] buffer)
{
    using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead);
    response.EnsureSuccessStatusCode();
    using Stream body = await response.Content.ReadAsStreamAsync();
    int filled = 0;
    int read;
    while ((read = await body.ReadAsync(buffer.AsMemory(filled, Math.Min(FloorReadSize, buffer.Length - filled)))) > 0)
    {
        filled += read;
    }

    return filled;
}

// Measured as PooledPeers.CopyToRecyclableStreamAsync
static async Task<int> CopyToRecyclableStreamAsync(HttpClient client, Uri url)
{
    using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead);
    response.EnsureSuccessStatusCode();
    using Stream body = await response.Content.ReadAsStreamAsync();
    using RecyclableMemoryStream copy = RecyclableStreams.Manager.GetStream();
    await body.CopyToAsync(copy);
    return (int)copy.Length;
}

// Measured as PooledPeers.FillBufferWriterAsync
static async Task<int> FillBufferWriterAsync(HttpClient client, Uri url)
{
    using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead);
    response.EnsureSuccessStatusCode();
    using Stream body = await response.Content.ReadAsStreamAsync();
    using var writer = new ArrayPoolBufferWriter<byte>();
    int read;
    while ((read = await body.ReadAsync(writer.GetMemory(ReadSize))) > 0)
    {
        writer.Advance(read);
    }

    return writer.WrittenCount;
}

// Measured as PooledPeers.ReadAtLeastAsync
static async Task<int> ReadAtLeastAsync(HttpClient client, Uri url, int size)
{
    using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead);
    response.EnsureSuccessStatusCode();
    using Stream body = await response.Content.ReadAsStreamAsync();
    PipeReader reader = PipeReader.Create(body);
    ReadResult result = await reader.ReadAtLeastAsync(size);
    int length = (int)result.Buffer.Length;
    reader.AdvanceTo(result.Buffer.End);
    await reader.CompleteAsync();
    return length;
}

Uri url = server.BytesUrl(OneMiB);
Console.WriteLine(await TryOnce.DownloadAsync((client, u) => FloorAsync(client, u, new byte[OneMiB]), url));
Console.WriteLine(await TryOnce.DownloadAsync(CopyToRecyclableStreamAsync, url));
Console.WriteLine(await TryOnce.DownloadAsync(FillBufferWriterAsync, url));
Console.WriteLine(await TryOnce.DownloadAsync((client, u) => ReadAtLeastAsync(client, u, OneMiB), url));

// `PooledPeers` measures these four and chapter 04's `PooledRead` at 64 KiB, 1 MiB and 64 MiB, chunked.
// No Content-Length tells a strategy what to rent: the pooled read, the stream and the buffer writer
// grow as the bytes arrive. The floor and the `PipeReader` are handed the size by the benchmark, which
// real code reading a chunked body does not know. (`PooledPeers` also has a Content-Length framing;
// add `Framing.ContentLength` to the call to measure it too; the cell then takes longer.)
//
// **Before you run the next cell:** does any peer reach megabytes per download, and at which size?

Cell(9);
// Given parameters replace the class's own, so the sizes are named too.
MeasurementResult peers = Measure.Run("04a-floor-and-peers", server.Context, typeof(PooledPeers),
    new Dictionary<string, object[]> { ["Size"] = [64 * 1024, OneMiB, 64 * OneMiB], ["Framing"] = [Framing.Chunked] });
display(peers);
display(Charts.SizeSweep("04a · bytes allocated per download, chunked: the floor and the peers", peers.Select(r => r with { Variant = "" })));

// ## 3 · Beside the floor
//
// Point by point: the pooled read's gap to the floor, with its sign, against a target of the larger of
// 256 B and a tenth of the floor. A negative gap is the pooled read under the floor. The last lines name
// every point over the target, and every point where a peer allocated less than the pooled read.

Cell(11);
// The pooled read against the floor, point by point. The target: within the larger of 256 B and 10% of the floor.
int[] peerSizes = [.. peers.Select(r => r.PayloadBytes!.Value).Distinct().Order()];
string[] others = ["RecyclableMemoryStream_CopyTo", "ArrayPoolBufferWriter", "PipeReader_ReadAtLeast"];
Console.WriteLine($"{"body",-26}{"floor",10}{"pooled",10}{"gap",9}{"target",8}   {"RMS",10}{"buffer writer",15}{"PipeReader",12}");
int within = 0;
foreach (string framing in peers.Select(r => r.Variant).Distinct())
{
    foreach (int size in peerSizes)
    {
        long floorBytes = peers.Get("Floor", size, framing).AllocatedBytes;
        long pooledBytes = peers.Get("PooledRead", size, framing).AllocatedBytes;
        long target = Math.Max(256, floorBytes / 10);
        within += pooledBytes - floorBytes <= target ? 1 : 0;
        string others3 = string.Concat(others.Select((s, k) => ByteUnits.Format(peers.Get(s, size, framing).AllocatedBytes).PadLeft(k == 1 ? 15 : k == 2 ? 12 : 10)));
        Console.WriteLine($"{ByteUnits.Format(size) + ", " + framing,-26}{ByteUnits.Format(floorBytes),10}{ByteUnits.Format(pooledBytes),10}{pooledBytes - floorBytes,+9:+#,0;-#,0;0}{target,8:N0}   {others3}");
    }
}
Console.WriteLine($"The pooled read is within its target at {within} of {peers.Count(r => r.Strategy == "PooledRead")} points.");
foreach (MeasuredRow row in peers.Where(r => r.Strategy == "PooledRead"))
{
    long gap = row.AllocatedBytes - peers.Get("Floor", row.PayloadBytes!.Value, row.Variant).AllocatedBytes;
    long target = Math.Max(256, peers.Get("Floor", row.PayloadBytes!.Value, row.Variant).AllocatedBytes / 10);
    if (gap > target) Console.WriteLine($"  over its target at {ByteUnits.Format(row.PayloadBytes!.Value)} {row.Variant}: {gap:N0} B above the floor.");
    foreach (string other in others.Where(o => peers.Get(o, row.PayloadBytes!.Value, row.Variant).AllocatedBytes < row.AllocatedBytes))
        Console.WriteLine($"  at {ByteUnits.Format(row.PayloadBytes!.Value)} {row.Variant}, {other} allocated less than the pooled read.");
}
foreach (string other in others)
{
    MeasuredRow worst = peers.Where(r => r.Strategy == other).MaxBy(r => r.AllocatedBytes)!;
    MeasuredRow best = peers.Where(r => r.Strategy == other).MinBy(r => r.AllocatedBytes)!;
    Console.WriteLine($"{other}: from {ByteUnits.Format(best.AllocatedBytes)} ({ByteUnits.Format(best.PayloadBytes!.Value)}, {best.Variant}) to {ByteUnits.Format(worst.AllocatedBytes)} ({ByteUnits.Format(worst.PayloadBytes!.Value)}, {worst.Variant}).");
}

Cell(12);
// What RecyclableMemoryStream's manager keeps between streams, beside the 64 MiB body.
var rms = RecyclableStreams.Manager.Settings;
long rms64 = peers.Get("RecyclableMemoryStream_CopyTo", 64 * OneMiB, "Chunked").AllocatedBytes;
Console.WriteLine($"Blocks of {ByteUnits.Format(rms.BlockSize)}; free blocks kept between streams: at most {ByteUnits.Format(rms.MaximumSmallPoolFreeBytes)}.");
Console.WriteLine($"A 64 MiB body needs {64 * OneMiB / rms.BlockSize} blocks, {ByteUnits.Format(64L * OneMiB - rms.MaximumSmallPoolFreeBytes)} more than the pool keeps; the stream allocated {ByteUnits.Format(rms64)} per download.");

// **What takes a peer to megabytes.**
//
// - **RecyclableMemoryStream**'s manager keeps at most the free bytes the cell above prints between
//   streams. A body's blocks past that are allocated for one download and dropped when the stream is
//   disposed. Raising `MaximumSmallPoolFreeBytes` keeps more memory for good: `BodyPool`'s trade-off.
// - **`ArrayPoolBufferWriter`** grows by renting a larger array from `ArrayPool<byte>.Shared`, copying
//   and returning the old one
//   ([ArrayPoolBufferWriter{T}.cs](https://github.com/CommunityToolkit/dotnet/blob/main/src/CommunityToolkit.HighPerformance/Buffers/ArrayPoolBufferWriter%7BT%7D.cs),
//   `ResizeBuffer`); the **PipeReader** asks the same pool for one array of at least the size it is given
//   ([StreamPipeReader.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.IO.Pipelines/src/System/IO/Pipelines/StreamPipeReader.cs),
//   `AllocateSegment`). That pool keeps a returned array in the returning thread's own slot first, and
//   only the array it displaces in the stacks every thread can reach
//   ([SharedArrayPool.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Private.CoreLib/src/System/Buffers/SharedArrayPool.cs)).
//   An async download resumes on whichever thread is free, so a rent can run on a thread whose slot
//   is empty while the array sits in another's: then it allocates. Whether that falls inside the
//   counted iteration depends on thread timing; the next cell counts where it took a peer to megabytes
//   in this run.

Cell(14);
// Where did a peer reach megabytes per download in this run?
foreach (string other in others)
{
    var big = peers.Where(r => r.Strategy == other && r.AllocatedBytes >= OneMiB).Select(r => $"{ByteUnits.Format(r.PayloadBytes!.Value)} {r.Variant}").ToList();
    Console.WriteLine($"{other}: {big.Count} of {peers.Count(r => r.Strategy == other)} points at 1 MiB or more per download{(big.Count > 0 ? ": " + string.Join(", ", big) : "")}.");
}

// ## 4 · Gen2 at 4 MiB
//
// Chapter 01 showed that large arrays cost full collections, yet BenchmarkDotNet's Gen2 column for the
// naive read of multi-megabyte bodies can read 0, or far less than a long count. The next cell measures
// chapter 04's sweep at 4 MiB, then counts Gen2 over many naive downloads in a row, in a process of its
// own (chapter 07's load probe, one download in flight), and compares the two.

Cell(16);
{ // a block of its own, as the cell is a scope of its own in the notebook: a name it declares is declared by another cell too
    MeasurementResult sweep = Measure.Run("04a-floor-and-peers", server.Context, typeof(PooledSweep), new Dictionary<string, object[]> { ["Size"] = [4 * OneMiB] });
    LoadProbe probe = await LoadProbe.BuildAsync();
    int size = 4 * OneMiB;
    int downloads = MeasurementProfile.Current == "quick" ? 50 : 100; // the quick profile counts half as many
    MeasuredRow row = sweep.Get("Client_Send_GetByteArrayAsync", size);
    LoadResult many = await probe.RunAsync(LoadStrategies.Naive, server, size, contentLength: false, concurrency: 1, downloads);
    double counted = 1000.0 * many.Gen2 / many.Downloads;

    Console.WriteLine($"The naive read of {ByteUnits.Format(size)}, chunked, allocated {ByteUnits.Format(row.AllocatedBytes)} per download.");
    Console.WriteLine(row.Gen2 == 0
        ? "BenchmarkDotNet's Gen2 column: 0. No full collection fell inside the one iteration it counts."
        : $"BenchmarkDotNet's Gen2 column: {row.Gen2:0.##} per 1,000, one full collection per {1000 / row.Gen2:0.#} downloads of the one iteration it counts.");
    Console.WriteLine($"The load probe, {many.Downloads} downloads in a row: {many.Gen2} Gen2, {counted:0.#} per 1,000"
        + (many.Gen2 == 0 ? "." : $", one per {(double)many.Downloads / many.Gen2:0.#} downloads, {ByteUnits.Format(many.AllocatedBytes / many.Gen2)} allocated between two."));
    Console.WriteLine(many.Gen2 == 0
        ? "The long count saw no full collection either: nothing to compare."
        : row.Gen2 == 0
            ? "BenchmarkDotNet's column says none where the long count found some."
            : $"BenchmarkDotNet's column reads {row.Gen2 / counted:0.##} times the long count's rate.");
}

// BenchmarkDotNet counts collections in one extra iteration after the measured ones, with as many
// operations as each of them, and by default forces a full collection after every iteration before it
// ([Engine.cs](https://github.com/dotnet/BenchmarkDotNet/blob/v0.15.8/src/BenchmarkDotNet/Engines/Engine.cs),
// `GetExtraStats` and `RunIteration`). Its Gen2 column is a sample of one short stretch that starts
// just after a full collection. The probe counts over many downloads in a row with none forced, and
// the last line above says how the two compare in this run. A Gen2 figure from one short iteration is
// a sample, not a rate: for a rate, count over many operations, as the probe does.

Cell(18);
await server.DisposeAsync();
Console.WriteLine("Server stopped.");

// ## Recap
//
// - The floor is a plain read loop with no buffer of its own per download: a reference point, not a
//   lower bound. Section 3 prints the pooled read's gap to it, with its sign, and where a peer
//   allocated less.
// - A peer renting from `ArrayPool<byte>.Shared` allocates when neither its thread's slot nor the per-core stacks hold an array of the size (chapter 01, section 4); a block pool with a cap allocates what is past its cap. Section 3's last cell
//   counts the points where a peer reached a megabyte or more in this run; it does not say which cause. `BodyPool` keeps arrays of 16 KiB and over under one budget behind one lock, not per thread (smaller rents go to `ArrayPool<byte>.Shared`)
//   ([BoundedArrayPool.cs](../../helpers/PooledHttp/Buffers/BoundedArrayPool.cs)).
// - A Gen2 column from one short iteration is a sample, not a rate: count over many operations.
//
// **Next:** [05 · Request bodies without the garbage](../05-request-bodies.ipynb) · **Back:** [04 · Pooled buffers](../04-pooled-buffers.ipynb)
