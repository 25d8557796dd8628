// Usage: LoadProbe <strategy> <url> <body size> <in flight> <downloads>
// Downloads <url> <downloads> times with <in flight> downloads at once, after a warm-up, checks every body
// byte for byte, and prints one JSON line (PooledHttp.Workshop.Load.LoadResult) describing what that cost this process.
using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using PooledHttp.Buffers;
using PooledHttp.Workshop.Load;

if (args.Length != 5 || !LoadStrategies.Names.Contains(args[0])
    || !Uri.TryCreate(args[1], UriKind.Absolute, out Uri? url)
    || !int.TryParse(args[2], CultureInfo.InvariantCulture, out int bodySize) || bodySize < 0
    || !int.TryParse(args[3], CultureInfo.InvariantCulture, out int concurrency) || concurrency < 1
    || !int.TryParse(args[4], CultureInfo.InvariantCulture, out int downloads) || downloads < concurrency)
{
    Console.Error.WriteLine($"usage: LoadProbe {string.Join('|', LoadStrategies.Names)} <url> <body size> <in flight> <downloads>   (downloads >= in flight >= 1)");
    return 2;
}

string strategy = args[0];
// As many connections as downloads in flight (the handler's default is unlimited): each body has its own.
using var client = new HttpClient();
(object? pool, Func<Task<int>> once) = LoadStrategies.Create(strategy, client, url, concurrency, bodySize);

async Task<long> RunAsync(int total)
{
    // <concurrency> workers share the downloads: exactly <concurrency> in flight until the last round.
    int next = 0;
    long bytes = 0;
    await Task.WhenAll(Enumerable.Range(0, concurrency).Select(async _ =>
    {
        while (Interlocked.Increment(ref next) <= total)
        {
            Interlocked.Add(ref bytes, await once().ConfigureAwait(false));
        }
    })).ConfigureAwait(false);
    return bytes;
}

// Warm-up: connections opened, code jitted, and every pool grown to what this load keeps in it. A pool's
// count of arrays of a size rises each time more downloads than ever before hold that size at once, which
// keeps happening for several hundred downloads at 64 in flight; eight rounds of the load get them all
// (every strategy alike) to the steady state the measurement is about.
await RunAsync(Math.Max(8 * concurrency, 64)).ConfigureAwait(false);

int gen0 = GC.CollectionCount(0), gen1 = GC.CollectionCount(1), gen2 = GC.CollectionCount(2);
TimeSpan pausedBefore = GC.GetTotalPauseDuration();
long allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
var clock = Stopwatch.StartNew();
long received = await RunAsync(downloads).ConfigureAwait(false);
clock.Stop();
long allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
int gen0After = GC.CollectionCount(0), gen1After = GC.CollectionCount(1), gen2After = GC.CollectionCount(2);
TimeSpan paused = GC.GetTotalPauseDuration() - pausedBefore;

var result = new LoadResult(
    Strategy: strategy,
    Concurrency: concurrency,
    Downloads: downloads,
    BytesReceived: received,
    AllocatedBytes: allocated,
    Gen0: gen0After - gen0,
    Gen1: gen1After - gen1,
    Gen2: gen2After - gen2,
    GcPauseMs: paused.TotalMilliseconds,
    ElapsedMs: clock.Elapsed.TotalMilliseconds,
    PeakWorkingSetBytes: Process.GetCurrentProcess().PeakWorkingSet64)
{
    // What the process keeps once the load is over: its pool's free arrays and little else.
    HeapAfterBytes = GC.GetTotalMemory(forceFullCollection: true),
    PoolRetainedBytes = (pool as BoundedArrayPool)?.RetainedBytes,
};
GC.KeepAlive(pool);
Console.WriteLine(JsonSerializer.Serialize(result));
return 0;
