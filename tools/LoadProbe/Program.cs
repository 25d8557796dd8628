// Usage: LoadProbe naive|pooled <url> <concurrency> <downloads>
// Downloads <url> <downloads> times with <concurrency> downloads in flight, after a warm-up, and
// prints one JSON line (PooledHttp.Load.LoadResult) describing what that cost this process.
using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using PooledHttp.Benchmarks;
using PooledHttp.Load;

if (args.Length != 4 || args[0] is not ("naive" or "pooled")
    || !Uri.TryCreate(args[1], UriKind.Absolute, out Uri? url)
    || !int.TryParse(args[2], CultureInfo.InvariantCulture, out int concurrency) || concurrency < 1
    || !int.TryParse(args[3], CultureInfo.InvariantCulture, out int downloads) || downloads < concurrency)
{
    Console.Error.WriteLine("usage: LoadProbe naive|pooled <url> <concurrency> <downloads>   (downloads >= concurrency >= 1)");
    return 2;
}

string strategy = args[0];
using var client = new HttpClient();
Func<Task<int>> once = strategy == "pooled"
    ? () => Downloads.PooledReadAsync(client, url)
    : () => Downloads.SendThenReadAsByteArrayAsync(client, url);

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

// Warm-up: connections opened, pools filled, code jitted.
await RunAsync(Math.Max(2 * concurrency, 16)).ConfigureAwait(false);

int gen0 = GC.CollectionCount(0), gen1 = GC.CollectionCount(1), gen2 = GC.CollectionCount(2);
TimeSpan pausedBefore = GC.GetTotalPauseDuration();
long allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
var clock = Stopwatch.StartNew();
long received = await RunAsync(downloads).ConfigureAwait(false);
clock.Stop();

var result = new LoadResult(
    Strategy: strategy,
    Concurrency: concurrency,
    Downloads: downloads,
    BytesReceived: received,
    AllocatedBytes: GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore,
    Gen0: GC.CollectionCount(0) - gen0,
    Gen1: GC.CollectionCount(1) - gen1,
    Gen2: GC.CollectionCount(2) - gen2,
    GcPauseMs: (GC.GetTotalPauseDuration() - pausedBefore).TotalMilliseconds,
    ElapsedMs: clock.Elapsed.TotalMilliseconds,
    PeakWorkingSetBytes: Process.GetCurrentProcess().PeakWorkingSet64);
Console.WriteLine(JsonSerializer.Serialize(result));
return 0;
