// Usage: LoadProbe <strategy> <url> <body size> <in flight> <downloads> [<warm-up downloads>]
// Downloads <url> <downloads> times with <in flight> downloads at once, after a warm-up, checks every body
// byte for byte, and prints one JSON line (LoadResult) describing what that cost this process.
using System.CommandLine;
using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using PooledHttp.Buffers;
using PooledHttp.Tools;

namespace PooledHttp.Workshop.Load;

/// <summary>
/// The probe's entry point. A class of its own rather than top-level statements: those make a public <c>Program</c>,
/// which would collide with the <c>Program</c> of every program that references the kit (the exercises project).
/// </summary>
internal static class Program
{
    private static async Task<int> Main(string[] args)
    {
        Argument<int> Count(string name, string description, int least) => new(name)
        {
            Description = description,
            CustomParser = result =>
            {
                if (result.Tokens.Count == 0)
                {
                    return -1; // an optional count not given
                }

                if (int.TryParse(result.Tokens[0].Value, NumberStyles.None, CultureInfo.InvariantCulture, out int value) && value >= least)
                {
                    return value;
                }

                result.AddError($"<{name}> is a whole number of at least {least}, not '{result.Tokens[0].Value}'.");
                return least;
            },
        };

        var strategyArgument = new Argument<string>("strategy") { Description = "How each body is read." }.AcceptOnlyFromAmong([.. LoadStrategies.Names]);
        var urlArgument = new Argument<Uri>("url")
        {
            Description = "What to download.",
            CustomParser = result =>
            {
                if (Uri.TryCreate(result.Tokens[0].Value, UriKind.Absolute, out Uri? parsed))
                {
                    return parsed;
                }

                result.AddError($"<url> is an absolute URL, not '{result.Tokens[0].Value}'.");
                return null;
            },
        };
        Argument<int> bodySizeArgument = Count("body size", "Bytes in each body.", 0);
        Argument<int> inFlightArgument = Count("in flight", "Downloads at once.", 1);
        Argument<int> downloadsArgument = Count("downloads", "Downloads measured, at least as many as in flight.", 1);
        Argument<int> warmUpArgument = Count("warm-up downloads", "Downloads before the measured ones; eight rounds of the load (at least 64) when not given.", 0);
        warmUpArgument.Arity = ArgumentArity.ZeroOrOne;
        warmUpArgument.DefaultValueFactory = _ => -1;
        string usage = $"usage: LoadProbe {string.Join('|', LoadStrategies.Names)} <url> <body size> <in flight> <downloads> [<warm-up downloads>]   (downloads >= in flight >= 1)";
        var command = new RootCommand("Downloads <url> <downloads> times, <in flight> at once, after a warm-up, checks every body byte for byte, and prints one JSON line (LoadResult) of what that cost this process.")
        {
            strategyArgument, urlArgument, bodySizeArgument, inFlightArgument, downloadsArgument, warmUpArgument,
        };
        command.Validators.Add(result =>
        {
            if (result.GetResult(downloadsArgument) is { Errors: var none } && !none.Any() && result.GetResult(inFlightArgument) is { Errors: var neither } && !neither.Any()
                && result.GetValue(downloadsArgument) < result.GetValue(inFlightArgument))
            {
                result.AddError("<downloads> must be at least <in flight>.");
            }
        });
        command.SetAction((parsed, _) => MeasureAsync(parsed.GetValue(strategyArgument)!, parsed.GetValue(urlArgument)!, parsed.GetValue(bodySizeArgument), parsed.GetValue(inFlightArgument), parsed.GetValue(downloadsArgument), parsed.GetValue(warmUpArgument)));
        return await ToolCommandLine.InvokeAsync(command, args, usage: usage).ConfigureAwait(false);

        async Task<int> MeasureAsync(string strategy, Uri url, int bodySize, int concurrency, int downloads, int warmUp)
        {
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
            // In two halves: the measured downloads start all together on connections already open, a burst the
            // first half (connections opening one by one) never sees; the second half starts the same way.
            int warmUpDownloads = warmUp >= 0 ? warmUp : Math.Max(8 * concurrency, 64);
            await RunAsync(warmUpDownloads / 2).ConfigureAwait(false);
            await RunAsync(warmUpDownloads - (warmUpDownloads / 2)).ConfigureAwait(false);
            bool peakReset = PeakWorkingSet.TryReset();
            using var poolEvents = new PoolEvents();

            int gen0 = GC.CollectionCount(0), gen1 = GC.CollectionCount(1), gen2 = GC.CollectionCount(2);
            TimeSpan pausedBefore = GC.GetTotalPauseDuration();
            long allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
            var clock = Stopwatch.StartNew();
            long received = await RunAsync(downloads).ConfigureAwait(false);
            clock.Stop();
            (long misses, long reclaimed, long refused) = (poolEvents.Misses, poolEvents.Reclaimed, poolEvents.Refused);

            // The last full collection, background or blocking: how much of the large-object heap it found dead.
            GCMemoryInfo background = GC.GetGCMemoryInfo(GCKind.Background), blocking = GC.GetGCMemoryInfo(GCKind.FullBlocking);
            GCMemoryInfo lastFull = background.Index > blocking.Index ? background : blocking;
            const int LargeObjectHeap = 3;
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
                PeakWorkingSetMeasuredOnly = peakReset,
                PoolMisses = misses,
                PoolReclaims = reclaimed,
                FullCollections = gen2After,
                LastFullGcLargeObjectsBeforeBytes = lastFull.Index == 0 ? null : lastFull.GenerationInfo[LargeObjectHeap].SizeBeforeBytes,
                LastFullGcLargeObjectsAfterBytes = lastFull.Index == 0 ? null : lastFull.GenerationInfo[LargeObjectHeap].SizeAfterBytes,
                PoolRefusedReturns = refused,
                // What the process keeps once the load is over: its pool's free arrays and little else.
                HeapAfterBytes = GC.GetTotalMemory(forceFullCollection: true),
                PoolRetainedBytes = (pool as BoundedArrayPool)?.RetainedBytes,
            };
            GC.KeepAlive(pool);
            Console.WriteLine(JsonSerializer.Serialize(result));
            return 0;
        }
    }
}
