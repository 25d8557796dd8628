#:project ../../../helpers/PooledHttp.Workshop/PooledHttp.Workshop.csproj
#:property PublishAot=false
// The load matrix behind chapter 07 and docs/measurements.md, each run in a process of its own (the load probe,
// helpers/PooledHttp.Workshop.LoadProbe) against LocalServer in this tool's process, every body paced by the server
// (Pace.Network) so the downloads really overlap, and checked byte for byte.
//   grid      every strategy of LoadStrategies, for 1 and 16 MiB bodies, 1, 8 and 64 in flight, with and
//             without a Content-Length, one run each;
//   overload  the rows where the load is past the default pool's budget or its lock (64 in flight: 1 MiB chunked
//             after a long warm-up, 16 MiB with and without a length), three runs of the pooled reads and the
//             floor, one of the unpooled peers, with the machine's load average beside each run.
// Usage: dotnet run -c Release tools/Experiments/LoadMatrix/load-matrix.cs -- [grid|overload] [out.csv] [strategy,...]
using System.Globalization;
using PooledHttp.Workshop.Load;
using PooledHttp.Workshop.Server;

string mode = args.Length > 0 ? args[0] : "grid";
if (mode is not ("grid" or "overload"))
{
    Console.Error.WriteLine("usage: load-matrix.cs -- [grid|overload] [out.csv] [strategy,...]");
    return 2;
}

string output = args.Length > 1 ? args[1] : $"artifacts/load-matrix-{mode}.csv";
string[] strategies = args.Length > 2 ? args[2].Split(',') : [.. LoadStrategies.Names];
const int MiB = 1024 * 1024;

await using LocalServer server = LocalServer.Start();
LoadProbe probe = await LoadProbe.BuildAsync();
Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(output))!);
await using var csv = new StreamWriter(output);
await csv.WriteLineAsync("strategy,body,framing,in_flight,run,load_average,peak_overlap,warm_up,downloads,allocated_per_download,gen0,gen1,gen2,gc_pause_ms,elapsed_ms,peak_working_set,peak_measured_only,heap_after,pool_retained,pool_misses,pool_reclaims,pool_refused,full_gcs_total,last_full_gc_loh_before,last_full_gc_loh_after");

async Task RunAsync(string strategy, int size, bool length, int inFlight, int downloads, int? warmUp, int run)
{
    string load = File.Exists("/proc/loadavg") ? File.ReadAllText("/proc/loadavg").Split(' ')[0] : "";
    LoadResult r = await probe.RunAsync(strategy, server, size, length, inFlight, downloads, Pace.Network, warmUp);
    if (r.BytesReceived != (long)size * downloads)
    {
        throw new InvalidOperationException($"{strategy}: {r.BytesReceived:N0} bytes received");
    }

    string line = string.Create(CultureInfo.InvariantCulture,
        $"{r.Strategy},{size / MiB}MiB,{(length ? "length" : "chunked")},{inFlight},{run},{load},{r.PeakOverlap},{warmUp?.ToString(CultureInfo.InvariantCulture) ?? "default"},{r.Downloads},{r.AllocatedPerDownload:0},{r.Gen0},{r.Gen1},{r.Gen2},{r.GcPauseMs:0.0},{r.ElapsedMs:0},{r.PeakWorkingSetBytes},{r.PeakWorkingSetMeasuredOnly},{r.HeapAfterBytes},{r.PoolRetainedBytes},{r.PoolMisses},{r.PoolReclaims},{r.PoolRefusedReturns},{r.FullCollections},{r.LastFullGcLargeObjectsBeforeBytes},{r.LastFullGcLargeObjectsAfterBytes}");
    await csv.WriteLineAsync(line);
    await csv.FlushAsync();
    Console.WriteLine(line);
}

if (mode == "grid")
{
    foreach (int size in new[] { MiB, 16 * MiB })
    {
        foreach (bool length in new[] { true, false })
        {
            foreach (int inFlight in new[] { 1, 8, 64 })
            {
                // 512 downloads where the load is light enough to run them in seconds; fewer for 16 MiB or one at a time.
                int downloads = size == MiB ? (inFlight == 1 ? 128 : 512) : (inFlight == 64 ? 192 : 96);
                foreach (string strategy in strategies)
                {
                    await RunAsync(strategy, size, length, inFlight, downloads, warmUp: null, run: 1);
                }
            }
        }
    }

    return 0;
}

// The unpooled peers allocate a body per download whatever happens, so one run of them says enough.
string[] once = [LoadStrategies.Naive];
(int Size, bool Length, int Downloads, int? WarmUp)[] rows =
[
    // 1,024 downloads of warm-up: what a pool keeps at 64 in flight settles only after several hundred.
    (MiB, false, 1024, 1024),
    // 192 downloads is three rounds of 1 GiB in flight, four times the default pool's budget.
    (16 * MiB, true, 192, null),
    (16 * MiB, false, 192, null),
];
foreach ((int size, bool length, int downloads, int? warmUp) in rows)
{
    for (int run = 1; run <= 3; run++)
    {
        foreach (string strategy in strategies.Where(s => run == 1 || !once.Contains(s)))
        {
            await RunAsync(strategy, size, length, 64, downloads, warmUp, run);
        }
    }
}

return 0;
