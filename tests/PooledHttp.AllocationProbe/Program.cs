// Usage: PooledHttp.AllocationProbe <strategy> <url>[,<url>...] [iterations] [warm-ups] [parallel]
// One operation downloads every url in turn, each <parallel> times at once.
// The -h2 strategies speak HTTP/2 by prior knowledge (h2c); "-h2-window=N" sets the handler's InitialHttp2StreamWindowSize
// to N. The runtime's process-wide HTTP/2 settings (DOTNET_SYSTEM_NET_HTTP_SOCKETSHTTPHANDLER_*) come from the environment.
// Prints one line: "<allocated bytes per operation> <body bytes per operation> <heap bytes after a full collection> <microseconds per operation>".
// The probe warms up first (the connection, the pool, tiered JIT), then measures only the steady state.
using System.Buffers;
using System.Globalization;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Buffers;

if (args.Length < 2)
{
    Console.Error.WriteLine("usage: PooledHttp.AllocationProbe pooled|pooled-4-per-size|pooled-no-budget|floor|bytearray|pooled-gzip|bytearray-gzip|pooled-h2[-window=N]|floor-h2[-window=N] <url>[,<url>...] [iterations] [warm-ups] [parallel]");
    return 2;
}

string strategy = args[0];
Uri[] urls = [.. args[1].Split(',').Select(u => new Uri(u))];
int iterations = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 50;
// Default warm-up: the shared pool keeps arrays per thread and per core; until every thread pool thread
// that resumes our continuations has met the sizes we rent, a rent can still miss and allocate.
int warmups = args.Length > 3 ? int.Parse(args[3], CultureInfo.InvariantCulture) : Math.Max(100, iterations);
int parallel = args.Length > 4 ? int.Parse(args[4], CultureInfo.InvariantCulture) : 1;

using var client = new HttpClient();
// A client that asks for gzip and decompresses, as services often configure theirs: the body's length is then unknown.
using var decompressing = new HttpClient(new SocketsHttpHandler { AutomaticDecompression = System.Net.DecompressionMethods.GZip });
// A client that speaks only HTTP/2 (h2c by prior knowledge), its stream window starting where the strategy says.
using var http2 = Http2Client(strategy);
// The body pool as it first was: four arrays per size and no budget, kept for the life of the process.
ArrayPool<byte> fourPerSize = ArrayPool<byte>.Create(BodyPool.MaxArrayLength, 4);
// A pool with no budget: ArrayPool.Create's default of 50 arrays per size, kept for the life of the process.
ArrayPool<byte> noBudget = ArrayPool<byte>.Create(BodyPool.MaxArrayLength, 50);
// Only the floor needs its buffers; allocated for the others they would count in the heap figure.
byte[][] floorBuffers = strategy.StartsWith("floor", StringComparison.Ordinal) ? [.. Enumerable.Range(0, parallel).Select(_ => new byte[64 * 1024 * 1024])] : [];
Func<Uri, int, Task<int>> download = strategy switch
{
    "pooled" => (url, _) => Downloads.PooledReadAsync(client, url),
    "pooled-4-per-size" => (url, _) => Downloads.PooledReadAsync(client, url, fourPerSize),
    "pooled-no-budget" => (url, _) => Downloads.PooledReadAsync(client, url, noBudget),
    "floor" => (url, slot) => Downloads.FloorAsync(client, url, floorBuffers[slot]),
    "bytearray" => async (url, _) => (await client.GetByteArrayAsync(url).ConfigureAwait(false)).Length,
    "pooled-gzip" => (url, _) => Downloads.PooledReadAsync(decompressing, url),
    "bytearray-gzip" => async (url, _) => (await decompressing.GetByteArrayAsync(url).ConfigureAwait(false)).Length,
    _ when strategy.StartsWith("pooled-h2", StringComparison.Ordinal) => (url, _) => Downloads.PooledReadAsync(http2, url),
    _ when strategy.StartsWith("floor-h2", StringComparison.Ordinal) => (url, slot) => Downloads.FloorAsync(http2, url, floorBuffers[slot]),
    _ => throw new ArgumentException($"unknown strategy '{strategy}'"),
};

async Task<int> OnceAsync()
{
    int total = 0;
    foreach (Uri url in urls)
    {
        if (parallel == 1)
        {
            total += await download(url, 0).ConfigureAwait(false);
        }
        else
        {
            total += (await Task.WhenAll(Enumerable.Range(0, parallel).Select(slot => download(url, slot))).ConfigureAwait(false)).Sum();
        }
    }

    return total;
}

int length = 0;
for (int i = 0; i < warmups; i++)
{
    length = await OnceAsync().ConfigureAwait(false);
}

long started = System.Diagnostics.Stopwatch.GetTimestamp();
long before = GC.GetTotalAllocatedBytes(precise: true);
for (int i = 0; i < iterations; i++)
{
    length = await OnceAsync().ConfigureAwait(false);
}

long after = GC.GetTotalAllocatedBytes(precise: true);
long microseconds = (long)System.Diagnostics.Stopwatch.GetElapsedTime(started).TotalMicroseconds / iterations;
long heap = GC.GetTotalMemory(forceFullCollection: true);
Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{(after - before) / iterations} {length} {heap} {microseconds}"));
GC.KeepAlive(floorBuffers);
return 0;

static HttpClient Http2Client(string strategy)
{
    const string WindowSuffix = "-h2-window=";
    int at = strategy.IndexOf(WindowSuffix, StringComparison.Ordinal);
    var handler = new SocketsHttpHandler();
    if (at >= 0)
    {
        handler.InitialHttp2StreamWindowSize = int.Parse(strategy.AsSpan(at + WindowSuffix.Length), CultureInfo.InvariantCulture);
    }

    return new HttpClient(handler)
    {
        DefaultRequestVersion = System.Net.HttpVersion.Version20,
        DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
    };
}
