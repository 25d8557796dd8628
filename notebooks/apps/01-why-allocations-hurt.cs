// Chapter 01-why-allocations-hurt as a .NET file-based app, written from notebooks/01-why-allocations-hurt.ipynb by `dotnet run --project tools/Publish/GenerateApps`.
// To change the chapter itself, edit the notebook and run that command again (a test fails while the two differ).
// Your own lines are yours to edit here: a guess the text asks for, a value to try.
//
// Run it from anywhere in the clone:  dotnet run notebooks/apps/01-why-allocations-hurt.cs          (the quick profile: add -- --quick)
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
using BenchmarkDotNet.Jobs;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Buffers;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Demos;
using PooledHttp.Http;
using PooledHttp.Workshop.Exercising;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;
using static PooledHttp.Workshop.Notebooks.ChapterApp; // display(...), HTML(...), Start, Cell

Start("01-why-allocations-hurt", args);

// # 01 · Why allocations hurt: generations, the LOH and ArrayPool
//
// **What you will learn**
// - how the garbage collector sorts objects into generations, and where a 1 MiB body starts life;
// - what renting from `ArrayPool<byte>` costs next to `new byte[n]`, from 100 bytes to 10 MB,
//   beside S1's 2017 figures;
// - what `Rent` hands you, what happens past a pool's limit, and how to watch it;
// - the rules of ownership that make pooling safe.
//
// This chapter retells S1, [Pooling large arrays with ArrayPool](https://adamsitnik.com/Array-Pool/)
// by Adam Sitnik (2017); [the reference run](../../data/results/reference/MACHINE.md) lists how long each chapter took.

// ## 1 · Set up

// Cell 3, the notebook's setup (#load "workshop.csx" builds the kit into artifacts/notebook-bin): the #:project line at the top does it here.

// Cell 4, the notebook's setup (#load "kit.csx" references the kit): the #:project line at the top does it here.

// ## 2 · Predict first
//
// The exercise at the end has you find the smallest `byte[]` born in Gen2, then measures
// allocating it. Before anything here measures it: how many Gen2 collections per 1,000
// allocations of that array do you expect?

Cell(6);
double gen2Guess = 0; // Gen2 collections per 1,000 allocations of the smallest array born in Gen2

// ## 3 · Generations, seen on real objects
//
// The GC splits the heap in three generations. New objects go to **Gen0**, small and cheap to
// collect; survivors move to **Gen1**, then **[Gen2](../../docs/glossary.md#gen2)**. Collecting a
// generation collects the younger ones too, so a Gen2 collection covers the whole heap.
//
// The exception that matters for HTTP code: an object of **85,000 bytes or more** goes straight to the
// **large object heap** ([LOH](../../docs/glossary.md#loh)), which is collected only with Gen2 (the runtime's
// [GC design notes](https://github.com/dotnet/runtime/blob/main/docs/design/coreclr/botr/garbage-collection.md)).
// An array's size includes a header, so the threshold in elements is a little under 85,000: the
// exercise asks for it exactly.

Cell(8);
byte[] below = new byte[80_000];
byte[] above = new byte[90_000];
object ordinary = new object();

Console.WriteLine($"byte[{below.Length:N0}]   starts in generation {GC.GetGeneration(below)}");
Console.WriteLine($"byte[{above.Length:N0}]   starts in generation {GC.GetGeneration(above)} (the LOH)");
Console.WriteLine($"a small object    starts in generation {GC.GetGeneration(ordinary)}");
GC.Collect();
int afterOne = GC.GetGeneration(ordinary);
GC.Collect();
Console.WriteLine($"it survives one collection: generation {afterOne}; and another: generation {GC.GetGeneration(ordinary)}");
GC.KeepAlive(below);
GC.KeepAlive(above);

// Now a burst: 1,000 arrays of 1 MiB, each dropped at once, against 1,000 rents and returns of the
// same size, counting the collections of each generation.

Cell(10);
const int Burst = 1000;
const int OneMiB = 1024 * 1024;
static (int Gen0, int Gen1, int Gen2) Collections() => (GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2));
static string Delta((int, int, int) before, (int, int, int) after)
    => $"Gen0 +{after.Item1 - before.Item1}, Gen1 +{after.Item2 - before.Item2}, Gen2 +{after.Item3 - before.Item3}";

var before = Collections();
for (int i = 0; i < Burst; i++)
{
    byte[] body = new byte[OneMiB];
    body[^1] = 1; // touch it, as a real body would be written
}
Console.WriteLine($"{Burst} x new byte[1 MiB]:     {Delta(before, Collections())}");

before = Collections();
for (int i = 0; i < Burst; i++)
{
    byte[] body = ArrayPool<byte>.Shared.Rent(OneMiB);
    body[^1] = 1;
    ArrayPool<byte>.Shared.Return(body);
}
Console.WriteLine($"{Burst} x rent and return 1 MiB: {Delta(before, Collections())}");

// Every large array counts towards the LOH's allocation budget; when it is spent, the GC collects
// Gen2, and Gen0 and Gen1 with it. The GC sets that budget mostly from how much survives
// ([GC design notes](https://github.com/dotnet/runtime/blob/main/docs/design/coreclr/botr/garbage-collection.md#the-allocation-budget)),
// so collection counts compare only within one process.
//
// Does a downloaded body land there too? Download a 1 MiB body in a loop with `GetByteArrayAsync`
// from the local server, and ask where it lives and what it collects.

Cell(12);
var server = LocalServer.Start();
var http = new HttpClient();

before = Collections();
var generations = new SortedSet<int>();
for (int i = 0; i < 50; i++)
{
    byte[] body = await http.GetByteArrayAsync(server.BytesUrl(OneMiB, contentLength: true));
    generations.Add(GC.GetGeneration(body));
}
Console.WriteLine($"The 50 bodies of 1 MiB GetByteArrayAsync returned were, as they arrived, in generation {string.Join(" or ", generations)}.");
Console.WriteLine($"50 downloads: {Delta(before, Collections())} (this process also runs the server, so this is a rough count)");

// ## 4 · Measure: allocate or rent, 100 B to 10 MB
//
// `ArrayPoolCost` (in `helpers/PooledHttp.Workshop.Benchmarks/Benchmarks`) is S1's benchmark: `Allocate` makes
// a new array, `RentAndReturn_Shared` rents from `ArrayPool<byte>.Shared` and returns, `RentAndReturn_Aware`
// does the same with a pool created for the size, `ArrayPool<byte>.Create(Size + 1, 10)`. Each benchmark
// calls one of these two methods:

Cell(14);
// Measured as ArrayPoolCost.NewArray
static byte[] NewArray(int size) => new byte[size];

// Measured as ArrayPoolCost.RentAndReturn
static int RentAndReturn(ArrayPool<byte> pool, int size)
{
    byte[] array = pool.Rent(size);
    int length = array.Length;
    pool.Return(array);
    return length;
}

Console.WriteLine($"NewArray(100_000): {NewArray(100_000).Length:N0} bytes, born in Gen{GC.GetGeneration(NewArray(100_000))}");
Console.WriteLine($"RentAndReturn(Shared, 100_000): the pool lent {RentAndReturn(ArrayPool<byte>.Shared, 100_000):N0} bytes");

// Like S1, the job below does **not** force a collection between iterations (`WithGcForce(false)`), so
// the collections that `Allocate` causes are paid inside its own measurement.

Cell(16);
Job job = MeasurementProfile.CurrentJob.WithGcForce(false);
MeasurementResult results = Measure.Run("01-why-allocations-hurt", server, job, typeof(ArrayPoolCost));
display(results);

// Time against size, beside S1's published means (dotted; .NET Core 2.0 on S1's machine): shape only.

Cell(18);
IReadOnlyList<PublishedFigure> s1 = PublishedFigure.Of("S1", "arraypool");
display(Charts.SizeSweep("01 · time per operation: allocate against rent", results, s1, SweepMetric.Time));
display(Charts.SizeSweep("01 · bytes allocated per operation", results, s1));

Cell(19);
// The story the chart tells, in figures from this run, beside S1's 2017 means: another machine and
// runtime, with no published error, so the two are set side by side for their shape only.
double? Published(string method, int size) => s1.SingleOrDefault(f => f.Method == method && f.PayloadBytes == size)?.MeanNs; // S1 did not publish every size
string Against2017(MeasuredRow row)
    => Published(row.Strategy, row.PayloadBytes!.Value) is double then ? $"S1 in 2017: {TimeUnits.Format(then)}" : "S1: not published";

int[] sizes = [.. results.Select(r => r.PayloadBytes!.Value).Distinct().Order()];
foreach (int size in sizes)
{
    MeasuredRow allocate = results.Get("Allocate", size), shared = results.Get("RentAndReturn_Shared", size), aware = results.Get("RentAndReturn_Aware", size);
    Console.WriteLine($"{size:N0} B");
    Console.WriteLine($"  new byte[] {TimeUnits.Format(allocate.MeanNs)} ({Against2017(allocate)}), {ByteUnits.Format(allocate.AllocatedBytes)}, Gen2 per 1,000 ops {allocate.Gen2:0.##}");
    Console.WriteLine($"  Shared     {TimeUnits.Format(shared.MeanNs)} ({Against2017(shared)}), {ByteUnits.Format(shared.AllocatedBytes)}; aware {TimeUnits.Format(aware.MeanNs)}, {ByteUnits.Format(aware.AllocatedBytes)}");
    Console.WriteLine($"  new byte[] minus Shared: {TimeDifference.Between(allocate, shared)}");
}

double rentLow = sizes.Min(size => results.Get("RentAndReturn_Shared", size).MeanNs), rentHigh = sizes.Max(size => results.Get("RentAndReturn_Shared", size).MeanNs);
Console.WriteLine();
int noisy = sizes.Count(size => results.Get("RentAndReturn_Shared", size) is var r && r.ErrorNs > r.MeanNs);
Console.WriteLine($"Shared rent and return: means of {TimeUnits.Format(rentLow)} to {TimeUnits.Format(rentHigh)} across all sizes" + (noisy > 0 ? $", {noisy} of {sizes.Length} of them noisy: an order of magnitude, not a ranking." : "."));
MeasuredRow shared10MB = results.Get("RentAndReturn_Shared", 10_000_000);
PublishedFigure shared10MB2017 = s1.Single(f => f.Method == "RentAndReturn_Shared" && f.PayloadBytes == 10_000_000);
Console.WriteLine($"Shared at 10 MB: {ByteUnits.Format(shared10MB2017.AllocatedBytes)} per rent in 2017 (S1), {ByteUnits.Format(shared10MB.AllocatedBytes)} here.");

// **Your own chart.** The cell below draws this run's
// Gen2 collections per 1,000 operations of `new byte[n]` at each size. Change the strategy
// (`RentAndReturn_Shared`), the column (`MeanNs`) or the chart type (`Chart.Line`), and run it again.

Cell(21);
// Playground: a chart of your own, with Plotly.NET's C# API. Change the strategy here; change the column (r.Gen2)
// and its axis title together.
string strategy = "Allocate"; // new byte[n]
List<MeasuredRow> mineRows = results.Where(r => r.Strategy == strategy).OrderBy(r => r.PayloadBytes).ToList();
Plotly.NET.GenericChart mine = Plotly.NET.CSharp.Chart.Column<double, string, string>(
    mineRows.Select(r => r.Gen2).ToArray(),
    Keys: mineRows.Select(r => $"{r.PayloadBytes:N0} B").ToArray(),
    Name: strategy,
    ShowLegend: true);
// Charts.Titled gives it a title, axis titles and the legend below, as every chart of the series has.
display(Charts.Titled(mine, $"01 · your chart: {strategy}, Gen2 collections per 1,000 operations", "array size", "Gen2 collections per 1,000 operations"));

// **Reading it.** The table's bytes show what renting from the shared pool cost at each size. A new array is zeroed (the GC design notes above), so its time should grow with its size; the lines under the charts say
// where this run tells the two times apart. What it shows
// for sure is the bytes and, from the LOH up, Gen2 collections (the Gen2 column counts BenchmarkDotNet's process, section 3's burst this one: compare within each).
//
// One row **has** changed for good. In 2017 the shared pool kept arrays of at most 2^20 elements
// (1 MiB), so renting 10 MB allocated 10 MB every time (the line "Shared at 10 MB" above prints S1's figure beside this run's). Since .NET 6 it keeps
// arrays up to 2^30 elements ([dotnet/runtime #55621](https://github.com/dotnet/runtime/pull/55621)), so the same call on one thread allocates nothing
// once warm. Per size it keeps one array per thread and up to 32 per core, drops some at Gen2 collections after a while (all of them under high memory pressure), and allocates when it has none left
// ([`SharedArrayPool.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Private.CoreLib/src/System/Buffers/SharedArrayPool.cs)):
// chapter 07 puts many downloads in flight at once.
//
// ## 5 · What `Rent` really returns
//
// `Rent(n)` promises *at least* `n` elements. The pools keep arrays in [buckets](../../docs/glossary.md#pool-bucket) of powers of two, so
// you usually get more, holding whatever its previous user left in it:

Cell(23);
ArrayPool<byte> createdWithDefaults = ArrayPool<byte>.Create(); // at most 1,048,576 bytes, 50 arrays per bucket
Console.WriteLine($"{"asked",12} {"Shared gives",14} {"Create() gives",16}");
foreach (int asked in new[] { 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000 })
{
    byte[] fromShared = ArrayPool<byte>.Shared.Rent(asked);
    byte[] fromCreated = createdWithDefaults.Rent(asked);
    Console.WriteLine($"{asked,12:N0} {fromShared.Length,14:N0} {fromCreated.Length,16:N0}");
    ArrayPool<byte>.Shared.Return(fromShared);
    createdWithDefaults.Return(fromCreated);
}

byte[] first = ArrayPool<byte>.Shared.Rent(10_000_000);
ArrayPool<byte>.Shared.Return(first);
byte[] second = ArrayPool<byte>.Shared.Rent(10_000_000);
ArrayPool<byte>.Shared.Return(second);
Console.WriteLine($"\nRenting 10 MB from Shared twice on one thread gives the same array back: {object.ReferenceEquals(first, second)}");

// The pool made with `Create()` returns exactly 10,000,000 bytes for the last request: past its
// maximum, it allocates a fresh array and drops it on return
// ([`ConfigurableArrayPool.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Private.CoreLib/src/System/Buffers/ConfigurableArrayPool.cs)).
// The pools' event source reports it; `ArrayPoolEvents` (in `helpers/PooledHttp.Workshop/Demos`)
// listens to it in this process. A small pool (arrays up
// to 1 MiB, two per size) makes each case happen; the comments say what to expect, the output what the runtime reported:

Cell(25);
ArrayPool<byte> small = ArrayPool<byte>.Create(maxArrayLength: OneMiB, maxArraysPerBucket: 2);
using (ArrayPoolEvents events = ArrayPoolEvents.Of(small))
{
    byte[] a = small.Rent(OneMiB);      // allocated, to be pooled
    small.Return(a);
    a = small.Rent(OneMiB);             // from the pool: no event
    byte[] b = small.Rent(OneMiB);      // the bucket's second array: allocated, to be pooled
    byte[] c = small.Rent(OneMiB);      // both are out and no larger bucket exists: allocated, pool exhausted
    small.Return(a);
    small.Return(b);
    small.Return(c);                    // the bucket already holds two: dropped
    byte[] d = small.Rent(500_000);     // rounded up to 512 KiB: allocated, to be pooled
    byte[] e2 = small.Rent(500_000);
    byte[] f = small.Rent(500_000);     // its bucket is empty: the pool borrows from the next size up, no event
    small.Return(d); small.Return(e2); small.Return(f);
    byte[] huge = small.Rent(2 * OneMiB); // past the maximum: allocated
    small.Return(huge);                 // and dropped

    foreach (ArrayPoolEvent e in events.Events)
    {
        Console.WriteLine($"{e.Name,-16} {e.BufferSize,10:N0} bytes  {e.Reason}");
    }
}

// In production, record the same events with `dotnet-trace` (provider
// `System.Buffers.ArrayPoolEventSource`). It publishes events, not counters
// ([`ArrayPoolEventSource.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Private.CoreLib/src/System/Buffers/ArrayPoolEventSource.cs)),
// so `dotnet-counters` does not show them. Many "larger than the pool keeps" events mean the pool is
// too small for your bodies. For a pool made with `Create()`, many "none left of that size" ones mean
// more arrays are out at once than it keeps; the shared pool also misses on first use, after a trim,
// and when its free arrays sit in other threads' slots.
//
// ## 6 · The rules of ownership
//
// Pooling trades the GC's safety for fewer allocations, so the rules the GC enforced are now yours:
//
// 1. **One owner.** Whoever rents an array returns it **exactly once**: returned twice, it can go
//    to two later renters at once.
// 2. **Never touch it after returning it.** It may already belong to someone else.
// 3. **Use the length you asked for**, never `array.Length`, and expect old data in the array.
// 4. **Clear on return when the data is sensitive** (`Return(array, clearArray: true)`), or the next
//    renter can read your tokens.
// 5. **Return on every path**, exceptions and cancellations included (`try`/`finally`, `using`).
//
// The helpers encode these rules in a type: `GetPooledAsync` returns a `PooledBuffer`, which exposes
// exactly the body's bytes, returns the array when disposed, then refuses access:

Cell(27);
PooledBuffer lease = await http.GetPooledAsync(server.BytesUrl(100_000));
Console.WriteLine($"Leased {lease.Length:N0} bytes; intact: {Payload.FirstMismatch(lease.Span) < 0}");
lease.Dispose();
lease.Dispose(); // a second dispose does nothing
try
{
    _ = lease.Span[0];
}
catch (ObjectDisposedException e)
{
    Console.WriteLine($"After dispose: {e.GetType().Name}: {e.Message}");
}

// ## 7 · Your turn: the smallest array born in Gen2
//
// The rule counts the object's size, header included (section 3). Find the smallest `byte[]` for
// which `GC.GetGeneration` says 2, using the playground below, then write it in
// `exercises/E01_LargeObjectThreshold.cs`.
//
// The cell after the playground builds `exercises/`, checks your code in its own process, then
// measures it beside this chapter's strategies; the last one compares its Gen2
// collections with your guess from section 2. Until you write it, it reports "exercise not done yet". Edit, save,
// run the cell again: it rebuilds.

Cell(29);
// Playground: change the lengths and run it as often as you like.
foreach (int length in new[] { 80_000, 85_000, 90_000 })
{
    Console.WriteLine($"new byte[{length:N0}] is born in Gen{GC.GetGeneration(new byte[length])}");
}

Cell(30);
ExerciseResult e01 = Exercise01.Run();
display(e01);

Cell(31);
display(e01.Chart(results));
Console.WriteLine(e01.CompareGen2(gen2Guess));

// ## 8 · Clean up

Cell(33);
http.Dispose();
await server.DisposeAsync();
Console.WriteLine("Server stopped.");

// ## Recap
//
// - Objects of 85,000 bytes or more, a 1 MiB body among them, live in the LOH, collected only with
//   Gen2, the expensive collection.
// - A new array costs its bytes and, from the LOH up, Gen2 collections; section 4 prints what
//   renting from the shared pool cost here.
// - Since .NET 6 the shared pool keeps arrays up to 2^30 elements, so S1's 10 MB row no longer
//   allocates. Pools round sizes up and allocate past their maximum.
// - A pooled array needs one owner, who returns it once, on every path, and never touches it again.
//
// **Next:** [02 · The 5 MB download](../02-the-5mb-download.ipynb)
//
// *Source: Adam Sitnik, "Pooling large arrays with ArrayPool", https://adamsitnik.com/Array-Pool/ (2017).*
