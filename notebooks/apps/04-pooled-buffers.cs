// Chapter 04-pooled-buffers as a .NET file-based app, written from notebooks/04-pooled-buffers.ipynb by `dotnet run --project tools/Publish/GenerateApps`.
// To change the chapter itself, edit the notebook and run that command again (a test fails while the two differ).
// Your own lines are yours to edit here: a guess the text asks for, a value to try.
//
// Run it from anywhere in the clone:  dotnet run notebooks/apps/04-pooled-buffers.cs          (the quick profile: add -- --quick)
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
using System.IO;
using System.Net.Http;
using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Exercising;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;
using PooledHttp.Workshop.Trying;
using static PooledHttp.Workshop.Notebooks.ChapterApp; // display(...), HTML(...), Start, Cell

Start("04-pooled-buffers", args);

// # 04 · Pooled buffers: build the pooled read
//
// **What you will learn**
// - to build a pooled read in five steps, from renting by Content-Length to returning every array
//   exactly once;
// - why S0's leanest download, one `ReadAsync` into a rented array, can return part of the body;
// - what the library's reader adds, and what each rung of S0's ladder allocates.
//
// This chapter retells the second half of S0, [Removing Memory Allocations in HTTP Requests Using
// ArrayPool&lt;T&gt;](https://www.xaml.dev/post/removing-memory-allocations-in-http-requests-using-arraypools).

// ## 1 · Set up

// Cell 3, the notebook's setup (#load "workshop.csx" builds the kit into artifacts/notebook-bin): the #:project line at the top does it here.

// Cell 4, the notebook's setup (#load "kit.csx" references the kit): the #:project line at the top does it here.

Cell(5);
const int OneMiB = 1024 * 1024;
var server = LocalServer.Start();
Console.WriteLine($"Serving on {server.BaseAddress}");

// ## 2 · Predict first
//
// Write each answer before the cell that gives it.
//
// 1. *Recall, from chapter 02's connection buffer.* S0 rents an array of the Content-Length and calls
//    `ReadAsync` once. How many bytes does that call return for a 1 MiB body sent in one write? In 16?
// 2. Step 4 refuses a chunked body over a 1 MiB limit, checking after each read, and grows by renting
//    twice the size from `ArrayPool<byte>.Shared`. How much of a 4 MiB body has it read when it refuses?
// 3. *Recall, from chapter 00's pooled read.* The exercise: your pooled download of a 16 MiB chunked
//    body. How many bytes per download?

Cell(7);
int readOnceGuess = 0;  // question 1: bytes returned by one ReadAsync
long limitGuess = 0;    // question 2: bytes of the 4 MiB chunked body read when it is refused
long bytesGuess = 0;    // question 3: bytes allocated per 16 MiB download by your code

// ## 3 · Step 1: rent by Content-Length, read once
//
// This is S0's `KnownLength_UseArrayPool`, which section 7 measures. `TryOnce` runs it once
// with a client that watches the wire: the status, every body byte the code reads, what it returns.

Cell(9);
// Measured as PooledDownload.ReadOnceAsync
static async Task<int> ReadOnceAsync(HttpClient client, Uri url)
{
    using var request = new HttpRequestMessage(HttpMethod.Get, url);
    using HttpResponseMessage response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
    response.EnsureSuccessStatusCode();
    int length = (int)(response.Content.Headers.ContentLength ?? throw new InvalidOperationException("No Content-Length."));
    byte[] buffer = ArrayPool<byte>.Shared.Rent(length);
    try
    {
        Stream stream = await response.Content.ReadAsStreamAsync();
        return await stream.ReadAsync(buffer.AsMemory(0, length));
    }
    finally
    {
        ArrayPool<byte>.Shared.Return(buffer);
    }
}

foreach (int writes in new[] { 1, 16 })
{
    Console.WriteLine($"{writes,2} write(s): {await TryOnce.DownloadAsync(ReadOnceAsync, server.BytesUrl(OneMiB, contentLength: true, writes: writes))}");
}
Console.WriteLine($"You guessed {readOnceGuess:N0} bytes.");

// `ReadAsync` returns what the connection has already buffered, or waits for the next bytes; it does
// not wait for the destination to fill
// ([HttpConnection.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http/src/System/Net/Http/SocketsHttpHandler/HttpConnection.cs),
// `ReadAsync`). The code trusts it: part of the body, and no error.
// S0's benchmark never checked the count, so S0's published figure (section 7's last column) may be the cost of part of a body:
// every chart here labels it "partial read".
//
// ## 4 · Step 2: loop until the body is in
//
// Read until the declared length is full. A body that ends early is an error, not a short body.

Cell(11);
static async Task<int> ReadFullyAsync(Stream body, Memory<byte> destination)
{
    int filled = 0;
    while (filled < destination.Length)
    {
        int read = await body.ReadAsync(destination[filled..]);
        if (read == 0)
        {
            throw new HttpIOException(HttpRequestError.ResponseEnded, $"The body ended after {filled:N0} of {destination.Length:N0} bytes.");
        }

        filled += read;
    }

    return filled;
}

static async Task<int> RentAndReadAsync(HttpClient client, Uri url)
{
    using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead);
    response.EnsureSuccessStatusCode();
    int length = (int)(response.Content.Headers.ContentLength ?? throw new InvalidOperationException("No Content-Length: step 3 copes with that."));
    byte[] buffer = ArrayPool<byte>.Shared.Rent(length);
    try
    {
        using Stream body = await response.Content.ReadAsStreamAsync();
        return await ReadFullyAsync(body, buffer.AsMemory(0, length)); // the body is buffer[..length]: use it before the finally
    }
    finally
    {
        ArrayPool<byte>.Shared.Return(buffer);
    }
}

foreach (int writes in new[] { 1, 16 })
{
    Console.WriteLine($"{writes,2} write(s): {await TryOnce.DownloadAsync(RentAndReadAsync, server.BytesUrl(OneMiB, contentLength: true, writes: writes))}");
}

// ## 5 · Steps 3 to 5: no length, a limit, every array back once
//
// Many servers, S0's among them, send no Content-Length. Without one, start small and, when the
// array is full, rent a larger one, copy, and return the old one (step 3). Refuse a body over the limit:
// before renting when its declared length says so, otherwise once a read takes it past (step 4). Every
// rented array goes back exactly once, on every path (step 5): the `finally` does that, and a pool that
// counts proves it.

Cell(13);
static async Task<int> ReadGrowingAsync(HttpClient client, Uri url, ArrayPool<byte> pool, int maxBytes)
{
    using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead);
    response.EnsureSuccessStatusCode();
    long? declared = response.Content.Headers.ContentLength;
    if (declared > maxBytes)
    {
        throw new InvalidOperationException($"The body declares {declared:N0} bytes, over the limit of {maxBytes:N0}.");
    }

    byte[] buffer = pool.Rent((int)(declared ?? 16 * 1024));
    int filled = 0;
    try
    {
        using Stream body = await response.Content.ReadAsStreamAsync();
        while (filled != declared)
        {
            if (filled == buffer.Length)
            {
                byte[] larger = pool.Rent((int)Math.Min(2L * buffer.Length, maxBytes + 1L)); // one byte over the limit is enough to see it passed
                buffer.AsSpan(0, filled).CopyTo(larger);
                pool.Return(buffer);
                buffer = larger;
            }

            int read = await body.ReadAsync(buffer.AsMemory(filled));
            if (read == 0)
            {
                break;
            }

            filled += read;
            if (filled > maxBytes)
            {
                throw new InvalidOperationException($"The body passed the limit of {maxBytes:N0} bytes.");
            }
        }

        if (declared is { } length && filled != length)
        {
            throw new HttpIOException(HttpRequestError.ResponseEnded, $"The body ended after {filled:N0} of {length:N0} bytes.");
        }

        return filled; // the body is buffer[..filled]: use it before the finally
    }
    finally
    {
        pool.Return(buffer);
    }
}

// Five bodies through the same code, with a 1 MiB limit:

Cell(15);
(string What, Uri Url)[] bodies =
[
    ("1 MiB, chunked", server.BytesUrl(OneMiB)),
    ("1 MiB, with a Content-Length", server.BytesUrl(OneMiB, contentLength: true)),
    ("4 MiB, chunked", server.BytesUrl(4 * OneMiB)),
    ("4 MiB, with a Content-Length", server.BytesUrl(4 * OneMiB, contentLength: true)),
    ("1 MiB, dropped after 64 KiB", server.ResetUrl(OneMiB, after: 64 * 1024)),
];
foreach ((string what, Uri url) in bodies)
{
    var pool = new CountingPool();
    TryResult result = await TryOnce.DownloadAsync((client, u) => ReadGrowingAsync(client, u, pool, maxBytes: OneMiB), url);
    Console.WriteLine($"{what}: {result}");
    Console.WriteLine($"{"",8}{pool.Rents} array(s) rented, {pool.Outstanding} not returned");
}
Console.WriteLine($"You guessed {limitGuess:N0} bytes read of the 4 MiB chunked body.");

// **Question 2.** The refusal came after the read that passed the limit, and that read could fill the rest of its array. `ArrayPool<byte>.Shared` rounds a rent up to a power of two
// ([SharedArrayPool.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Private.CoreLib/src/System/Buffers/SharedArrayPool.cs)),
// so a rent of 1 MiB and one byte got 2 MiB; the line of the third body shows how far past the limit the code read.
// The same rent explains the first body's last array: a body exactly at the limit needs one more,
// larger rent just to find that nothing follows. Bound each read by the limit too.
//
// ## 6 · The library's reader: the same steps, made robust
//
// `GetPooledAsync` (in `helpers/PooledHttp/Http`) adds what a service needs: `HttpClient.Timeout` over
// headers and body; a Content-Length treated as a claim (at most 16 MiB rented on its word alone);
// reads of at most 16 KiB with a length, the stream's own
// `CopyToAsync` without one; `BodyPool`, a pool with a budget; failures as `HttpClient` reports them;
// and a `PooledBuffer` that is exactly the body and returns its array once. The ladder measures it as
// `PooledRead`:

Cell(17);
#nullable enable // the helpers are written with nullable annotations; a cell has them off by default
// Measured as Downloads.PooledReadAsync
static async Task<int> PooledReadAsync(HttpClient client, Uri url, ArrayPool<byte>? pool = null)
{
    using PooledBuffer body = await client.GetPooledAsync(url, pool: pool);
    return body.Length;
}

foreach (Uri url in new[] { server.BytesUrl(OneMiB), server.BytesUrl(OneMiB, contentLength: true, writes: 16) })
{
    Console.WriteLine(await TryOnce.DownloadAsync((client, u) => PooledReadAsync(client, u), url)); // the lambda leaves the optional pool out
}
#nullable restore // the kernel's #nullable reaches the end of its cell only

// ## 7 · S0's ladder, at its 1 MiB
//
// `PooledDownload` measures S0's body, 1 MiB sent chunked in one write, under S0's names; only the
// known-length read gets it with a Content-Length. Chapter 02 and sections 3 and 6
// showed four rungs; the other three: a loop through a 4 KiB
// array that keeps nothing, the same loop through the older `ReadAsync(byte[], int, int)` overload, and
// S0's copy into a stream over arrays rented from `ArrayPool<byte>.Shared`, doubling from 256 bytes
// (`ArrayPoolWriteStream`).

Cell(19);
const int ChunkedReadBufferSize = PooledDownload.ChunkedReadBufferSize;         // S0's 4 KiB
const int UnknownLengthInitialCapacity = PooledDownload.UnknownLengthInitialCapacity; // 256 B
// Measured as PooledDownload.ReadInChunksAsync
static async Task<long> ReadInChunksAsync(HttpClient client, Uri url)
{
    using var request = new HttpRequestMessage(HttpMethod.Get, url);
    using HttpResponseMessage response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
    response.EnsureSuccessStatusCode();
    Stream stream = await response.Content.ReadAsStreamAsync();
    byte[] buffer = new byte[ChunkedReadBufferSize];
    long total = 0;
    int read;
    while ((read = await stream.ReadAsync(buffer)) > 0)
    {
        total += read;
    }

    return total;
}

// Measured as PooledDownload.ReadInChunksArrayOverloadAsync
static async Task<long> ReadInChunksArrayOverloadAsync(HttpClient client, Uri url)
{
    using var request = new HttpRequestMessage(HttpMethod.Get, url);
    using HttpResponseMessage response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
    response.EnsureSuccessStatusCode();
    Stream stream = await response.Content.ReadAsStreamAsync();
    byte[] buffer = new byte[ChunkedReadBufferSize];
    long total = 0;
    int read;
    while ((read = await stream.ReadAsync(buffer, 0, buffer.Length)) > 0)
    {
        total += read;
    }

    return total;
}

// Measured as PooledDownload.CopyToPooledStreamAsync
static async Task<int> CopyToPooledStreamAsync(HttpClient client, Uri url)
{
    using var request = new HttpRequestMessage(HttpMethod.Get, url);
    using HttpResponseMessage response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
    response.EnsureSuccessStatusCode();
    using var body = new ArrayPoolWriteStream((int?)response.Content.Headers.ContentLength ?? UnknownLengthInitialCapacity);
    await response.Content.CopyToAsync(body);
    return body.GetBuffer().Count;
}
Console.WriteLine(await TryOnce.DownloadAsync(ReadInChunksAsync, server.BytesUrl(OneMiB)));
Console.WriteLine(await TryOnce.DownloadAsync(ReadInChunksArrayOverloadAsync, server.BytesUrl(OneMiB)));
Console.WriteLine(await TryOnce.DownloadAsync(CopyToPooledStreamAsync, server.BytesUrl(OneMiB)));

// **Before you run the next cell:** the two loops differ only in the `ReadAsync` overload they call.
// How far apart are they per download, and why?

Cell(21);
MeasurementResult all = Measure.Run("04-pooled-buffers", server, typeof(PooledDownload), typeof(PooledSweep));
MeasurementResult ladder = all.Of(nameof(PooledDownload));
MeasurementResult sweep = all.Of(nameof(PooledSweep));
display(ladder);

Cell(22);
IReadOnlyList<PublishedFigure> s0 = PublishedFigure.Of("S0", "download");
display(Charts.Allocations("04 · bytes allocated per 1 MiB download", ladder, s0));

Console.WriteLine($"{"strategy",-58}{"here",12}{"S0 (.NET 8)",14}");
foreach (MeasuredRow row in ladder)
{
    string published = s0.FirstOrDefault(f => f.Method == row.Strategy) is { } f ? ByteUnits.Format(f.AllocatedBytes) : "-";
    string name = row.Strategy == "KnownLength_UseArrayPool" ? row.Strategy + " (partial read)" : row.Strategy;
    Console.WriteLine($"{name,-58}{ByteUnits.Format(row.AllocatedBytes),12}{published,14}");
}

MeasuredRow memoryLoop = ladder.Get("SendAsync_ResponseHeadersRead_ChunkedRead"), arrayLoop = ladder.Get("SendAsync_ResponseHeadersRead_ChunkedRead_ArrayOverload");
Console.WriteLine($"\nThe array overload costs {ByteUnits.Format(arrayLoop.AllocatedBytes - memoryLoop.AllocatedBytes)} more per download: {(double)(arrayLoop.AllocatedBytes - memoryLoop.AllocatedBytes) / (OneMiB / ChunkedReadBufferSize):0} B per read at most ({OneMiB / ChunkedReadBufferSize} reads of a 4 KiB buffer at the least).");
MeasuredRow naive = ladder.Get("Client_Send_GetByteArrayAsync"), pooled = ladder.Get("PooledRead"), writeStream = ladder.Get("SendAsync_ArrayPoolWriteStream");
// The same pooled read is measured again in section 8's sweep: how far its two figures lie apart is this run's spread.
long spread = Math.Abs(pooled.AllocatedBytes - sweep.Get("PooledRead", OneMiB).AllocatedBytes), gap = pooled.AllocatedBytes - writeStream.AllocatedBytes;
Console.WriteLine($"The naive download allocates {(double)naive.AllocatedBytes / pooled.AllocatedBytes:N0} times as much as the pooled read; the pooled read, {gap:+#,0;-#,0;0} B against S0's write stream.");
Console.WriteLine($"The pooled read itself lies {spread:N0} B apart in this table and the sweep: " + (Math.Abs(gap) <= 2 * spread ? "a gap within twice that is a tie." : "the gap is more than twice that."));

// **Reading it.** The two loops keep nothing: you cannot parse a body you have thrown away. The
// `Memory<byte>` overload returns a `ValueTask<int>`, which needs no object when a read completes at
// once; the array overload turns the same read into a `Task<int>` with `AsTask()`
// ([HttpBaseStream.cs](https://github.com/dotnet/runtime/blob/release/10.0/src/libraries/System.Net.Http/src/System/Net/Http/SocketsHttpHandler/HttpBaseStream.cs)),
// and the line above bounds that cost per read.
// S0's .NET 8 figure for its loop is in the table's last column.
// The write stream and the pooled read both keep the body in pooled arrays; the last two lines compare them, and say whether the gap exceeds twice how far the pooled read's two measurements lie apart.
//
// ## 8 · From 1 KiB to 64 MiB
//
// **Before you run the next cell:** from 1 KiB to 64 MiB the body grows 65,536-fold. Does either
// read's allocation grow with it?

Cell(24);
display(Charts.SizeSweep("04 · bytes allocated per download, 1 KiB to 64 MiB", sweep));

MeasuredRow[] pooledRows = [.. sweep.Where(row => row.Strategy == "PooledRead").OrderBy(row => row.PayloadBytes)];
MeasuredRow[] naiveRows = [.. sweep.Where(row => row.Strategy == "Client_Send_GetByteArrayAsync").OrderBy(row => row.PayloadBytes)];
string Each(MeasuredRow[] rows) => string.Join(", ", rows.Select(row => $"{ByteUnits.Format(row.AllocatedBytes)} at {ByteUnits.Format(row.PayloadBytes!.Value)}"));
Console.WriteLine($"Pooled read: {Each(pooledRows)}.");
Console.WriteLine($"Naive download: {Each(naiveRows)}.");
MeasuredRow lowest = pooledRows.MinBy(row => row.AllocatedBytes)!, highest = pooledRows.MaxBy(row => row.AllocatedBytes)!;
Console.WriteLine($"The pooled read's highest row ({ByteUnits.Format(highest.PayloadBytes!.Value)} body) lies {highest.AllocatedBytes - lowest.AllocatedBytes:N0} B above its lowest ({ByteUnits.Format(lowest.PayloadBytes!.Value)} body); section 7's two measurements of one read lay {spread:N0} B apart.");
Console.WriteLine($"From 1 KiB to 64 MiB the naive download's allocation is multiplied by {(double)naiveRows[^1].AllocatedBytes / naiveRows[0].AllocatedBytes:N0}, the pooled read's by {(double)pooledRows[^1].AllocatedBytes / pooledRows[0].AllocatedBytes:0.00}.");
long gapAt1KiB = naiveRows[0].AllocatedBytes - pooledRows[0].AllocatedBytes;
Console.WriteLine($"At 1 KiB the two differ by {ByteUnits.Format(gapAt1KiB)} per download.");

// The naive read holds every body twice, in arrays of its size (chapter 02), so its line climbs. The
// pooled read's arrays come back from the pool, so it should allocate per request, not per byte. The
// fourth line answers the question; the third sets the pooled read's range against section 7's
// spread, one pair of measurements of the same read.
//
// ## 9 · When not to pool
//
// - **The body is tiny.** At 1 KiB the two reads differ by what the last line prints: weigh that
//   against a pool's rules.
// - **The buffer lives long.** An array held for minutes is lost to the pool: copy what you keep.
// - **The data leaves your control.** Code that keeps a rented array after returning it can see
//   someone else's data. Lend a `PooledBuffer` for the length of a call, or copy.
// - **Sensitive data.** Clear it on return (`clearArray: true`), or the next renter can read it.
//
// ## 10 · Your turn: 16 MiB for under 16 KiB
//
// Move sections 4 and 5 into `exercises/E04_PooledDownload.cs`: rent from the pool you are given, hand
// the body to the callback once, return every array exactly once, refuse a body over the limit. A
// tracking pool poisons returned arrays; a fresh 16 KiB buffer per download misses the goal. The call
// checks your code in its own process, then measures it beside section 8's rows. Your guess is
// question 3.

Cell(26);
ExerciseResult e04 = Exercise04.Run(server, size: 16 * OneMiB, framing: Framing.Chunked);
display(e04);

Cell(27);
display(e04.Chart(all));
Console.WriteLine(e04.Compare(bytesGuess));

Cell(28);
await server.DisposeAsync();
Console.WriteLine("Server stopped.");

// ## Recap
//
// - One `ReadAsync` is not a read of the body: loop until the length is full; an early end is an error.
// - Without a length, grow through the pool; refuse an oversized body before you rent and bound each
//   read by the limit; return every array exactly once, on every path.
// - The naive read's cost follows the body; section 8 prints whether the pooled read's does.
// - Pool large, short-lived buffers you control.
//
// **Next:** the appendix, [04a · The floor and the peers](../04a-floor-and-peers.ipynb), or on to
// [05 · Request bodies without the garbage](../05-request-bodies.ipynb)
//
// *Source: S0, "Removing Memory Allocations in HTTP Requests Using ArrayPool&lt;T&gt;", xaml.dev (2023),
// https://www.xaml.dev/post/removing-memory-allocations-in-http-requests-using-arraypools*

// Declared in cell 13; a program's types follow its statements.
// A pool that counts: every array it lends must come back exactly once.
sealed class CountingPool : ArrayPool<byte>
{
    private readonly HashSet<byte[]> _lent = new();

    public int Rents { get; private set; }

    public int Outstanding => _lent.Count;

    public override byte[] Rent(int minimumLength)
    {
        byte[] array = Shared.Rent(minimumLength);
        _lent.Add(array);
        Rents++;
        return array;
    }

    public override void Return(byte[] array, bool clearArray = false)
    {
        if (!_lent.Remove(array))
        {
            throw new InvalidOperationException("An array came back twice, or was never lent by this pool.");
        }

        Shared.Return(array, clearArray);
    }
}
