#:project ../../../helpers/PooledHttp.Workshop/PooledHttp.Workshop.csproj
#:property PublishAot=false
// What the pooled read allocates over HTTP/2 (h2c on loopback) under each setting a service can change: the
// handler's receive buffer, not the library, is what grows with the body there. The servers run here (Kestrel's
// h2c port of WireServer; LocalServer for the HTTP/1.1 row); every measured client is tests/PooledHttp.AllocationProbe
// (Release) in a process of its own, since the runtime reads its HTTP/2 settings once per process. Runs are
// interleaved (every configuration once, then again) so that a slow moment of the machine spreads over all of them.
// Usage: dotnet run -c Release tools/Experiments/Http2Window/http2-window.cs -- [runs] [out.csv] [text the configurations' names must contain]
using System.Globalization;
using PooledHttp;
using PooledHttp.Workshop.Notebooks;
using PooledHttp.Workshop.Server;

int runs = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 3;
string output = args.Length > 1 ? args[1] : "artifacts/http2-window.csv";
string only = args.Length > 2 ? args[2] : "";
const int MiB = 1024 * 1024;
const string MaxWindow = "DOTNET_SYSTEM_NET_HTTP_SOCKETSHTTPHANDLER_FLOWCONTROL_MAXSTREAMWINDOWSIZE";
const string FixedWindow = "DOTNET_SYSTEM_NET_HTTP_SOCKETSHTTPHANDLER_HTTP2FLOWCONTROL_DISABLEDYNAMICWINDOWSIZING";

string root = WorkshopPaths.Root;
string probeProject = Path.Combine(root, "tests", "PooledHttp.AllocationProbe");
await RunAsync("dotnet", ["build", probeProject, "-c", "Release", "--nologo", "-v", "q"], new Dictionary<string, string>());
string probe = Path.Combine(probeProject, "bin", "Release", "net10.0", "PooledHttp.AllocationProbe.dll");

await using LocalServer http11 = LocalServer.Start();
await using WireServer wire = await WireServer.StartAsync(LoopbackCertificate.Create());

const string PoolArrays = "DOTNET_SYSTEM_BUFFERS_SHAREDARRAYPOOL_MAXARRAYSPERPARTITION";
Config[] configs =
[
    new("HTTP/1.1, Content-Length (for comparison)", "pooled", Http2: false, []),
    new("HTTP/1.1, gzip, AutomaticDecompression (for comparison)", "pooled-gzip", Http2: false, [], Gzip: true),
    new("h2c, defaults", "pooled-h2", Http2: true, []),
    new("h2c, defaults, floor (one preallocated array, no pool)", "floor-h2", Http2: true, []),
    new($"h2c, {MaxWindow}=1048576", "pooled-h2", Http2: true, [(MaxWindow, "1048576")]),
    new($"h2c, {MaxWindow}=2097152", "pooled-h2", Http2: true, [(MaxWindow, "2097152")]),
    new($"h2c, {MaxWindow}=4194304", "pooled-h2", Http2: true, [(MaxWindow, "4194304")]),
    new($"h2c, {FixedWindow}=1", "pooled-h2", Http2: true, [(FixedWindow, "1")]),
    new("h2c, InitialHttp2StreamWindowSize=1048576", "pooled-h2-window=1048576", Http2: true, []),
    new($"h2c, InitialHttp2StreamWindowSize=1048576 and {FixedWindow}=1", "pooled-h2-window=1048576", Http2: true, [(FixedWindow, "1")]),
    new($"h2c, {PoolArrays}=1024", "pooled-h2", Http2: true, [(PoolArrays, "1024")]),
    new("8 at once: HTTP/1.1, Content-Length", "pooled", Http2: false, [], Parallel: 8),
    new("8 at once: h2c, defaults", "pooled-h2", Http2: true, [], Parallel: 8),
    new($"8 at once: h2c, {MaxWindow}=1048576", "pooled-h2", Http2: true, [(MaxWindow, "1048576")], Parallel: 8),
    new($"8 at once: h2c, InitialHttp2StreamWindowSize=1048576 and {FixedWindow}=1", "pooled-h2-window=1048576", Http2: true, [(FixedWindow, "1")], Parallel: 8),
    new($"8 at once: h2c, {MaxWindow}=1048576 and {PoolArrays}=256", "pooled-h2", Http2: true, [(MaxWindow, "1048576"), (PoolArrays, "256")], Parallel: 8),
];
configs = [.. configs.Where(c => c.Name.Contains(only, StringComparison.Ordinal))];
int[] sizes = [MiB, 16 * MiB];

Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(output))!);
await using var csv = new StreamWriter(output);
await csv.WriteLineAsync("configuration,body_bytes,run,allocated_per_download,microseconds_per_download,heap_after");
var results = new Dictionary<(Config, int), List<(long Bytes, long Microseconds)>>();
for (int run = 1; run <= runs; run++)
{
    foreach (int size in sizes)
    {
        foreach (Config config in configs)
        {
            Uri url = config.Http2 ? wire.Http2Url(size) : config.Gzip ? http11.GzipUrl(size) : http11.BytesUrl(size, contentLength: true);
            // Downloads measured per run: 100 of 1 MiB, 50 of 16 MiB one at a time; 10 rounds of 8 at once, after 20.
            int iterations = config.Parallel > 1 ? 10 : size == MiB ? 100 : 50;
            int warmups = config.Parallel > 1 ? 20 : 100;
            string[] arguments = [probe, config.Strategy, url.ToString(), .. new[] { iterations, warmups, config.Parallel }.Select(n => n.ToString(CultureInfo.InvariantCulture))];
            string line = await RunAsync("dotnet", arguments, config.Environment.ToDictionary(e => e.Name, e => e.Value));
            long[] parts = [.. line.Trim().Split(' ').Select(p => long.Parse(p, CultureInfo.InvariantCulture))];
            if (parts[1] != (long)size * config.Parallel)
            {
                throw new InvalidOperationException($"{config.Name}: read {parts[1]:N0} of {size:N0} bytes");
            }

            (long perDownload, long microseconds) = (parts[0] / config.Parallel, parts[3] / config.Parallel);
            (results.TryGetValue((config, size), out var list) ? list : results[(config, size)] = []).Add((perDownload, microseconds));
            string row = string.Create(CultureInfo.InvariantCulture, $"\"{config.Name}\",{size},{run},{perDownload},{microseconds},{parts[2]}");
            await csv.WriteLineAsync(row);
            await csv.FlushAsync();
            Console.WriteLine(row);
        }
    }
}

Console.WriteLine();
Console.WriteLine("| configuration | 1 MiB: B per download, runs | 16 MiB: B per download, runs | 16 MiB: ms per download (wall time / downloads), runs |");
Console.WriteLine("|---|---|---|---|");
foreach (Config config in configs)
{
    string Bytes(int size) => string.Join(" / ", results[(config, size)].Select(r => r.Bytes.ToString("N0", CultureInfo.InvariantCulture)));
    string Ms = string.Join(" / ", results[(config, 16 * MiB)].Select(r => (r.Microseconds / 1000.0).ToString("0.0", CultureInfo.InvariantCulture)));
    Console.WriteLine($"| {config.Name} | {Bytes(MiB)} | {Bytes(16 * MiB)} | {Ms} |");
}

// Each child through the workshop's one way to start a process (both streams read while it runs); a failure stops the run.
static async Task<string> RunAsync(string file, string[] arguments, Dictionary<string, string> environment)
{
    ChildResult done = await ChildProcess.RunAsync(file, arguments, Timeout.InfiniteTimeSpan, environment);
    return done.ExitCode == 0 ? done.Output : throw new InvalidOperationException($"{file} {string.Join(' ', arguments)} exited with {done.ExitCode}: {done.Output} {done.Error}");
}

/// <summary>One way to download: the probe's strategy, the server (h2c, or HTTP/1.1 plain or gzip), the environment of the probe's process, and how many at once (per-download figures divide by it).</summary>
internal sealed record Config(string Name, string Strategy, bool Http2, (string Name, string Value)[] Environment, int Parallel = 1, bool Gzip = false);
