#:project ../../../helpers/PooledHttp.Workshop/PooledHttp.Workshop.csproj
#:property PublishAot=false
// The load matrix behind chapter 07 and docs/measurements.md: every strategy of LoadStrategies, for 1 and
// 16 MiB bodies, 1, 8 and 64 in flight, with and without a Content-Length, each body paced by the server
// (Pace.Network) so the downloads really overlap, each run in a process of its own (the load probe, helpers/PooledHttp.Workshop.LoadProbe).
// Usage: dotnet run -c Release tools/Experiments/LoadMatrix/load-matrix.cs -- [out.csv] [strategy,...]
using System.Globalization;
using PooledHttp.Workshop.Load;
using PooledHttp.Workshop.Server;

string output = args.Length > 0 ? args[0] : "artifacts/load-matrix.csv";
string[] strategies = args.Length > 1 ? args[1].Split(',') : [.. LoadStrategies.Names];
const int MiB = 1024 * 1024;

await using LocalServer server = LocalServer.Start();
LoadProbe probe = await LoadProbe.BuildAsync();
Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(output))!);
await using var csv = new StreamWriter(output);
await csv.WriteLineAsync("strategy,body,framing,in_flight,peak_overlap,downloads,allocated_per_download,gen0,gen1,gen2,gc_pause_ms,elapsed_ms,peak_working_set,heap_after,pool_retained");
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
                LoadResult r = await probe.RunAsync(strategy, server, size, length, inFlight, downloads, Pace.Network);
                if (r.BytesReceived != (long)size * downloads)
                {
                    throw new InvalidOperationException($"{strategy}: {r.BytesReceived:N0} bytes received");
                }

                string line = string.Create(CultureInfo.InvariantCulture,
                    $"{r.Strategy},{size / MiB}MiB,{(length ? "length" : "chunked")},{inFlight},{r.PeakOverlap},{r.Downloads},{r.AllocatedPerDownload:0},{r.Gen0},{r.Gen1},{r.Gen2},{r.GcPauseMs:0.0},{r.ElapsedMs:0},{r.PeakWorkingSetBytes},{r.HeapAfterBytes},{r.PoolRetainedBytes}");
                await csv.WriteLineAsync(line);
                await csv.FlushAsync();
                Console.WriteLine(line);
            }
        }
    }
}
