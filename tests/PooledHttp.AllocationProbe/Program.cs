// Usage: PooledHttp.AllocationProbe <strategy> <url> [iterations]
// Prints one line: "<allocated bytes per operation> <body length>".
// The probe warms up first (the connection, the pool, tiered JIT), then measures only the steady state.
using System.Globalization;
using PooledHttp.Benchmarks;

if (args.Length < 2)
{
    Console.Error.WriteLine("usage: PooledHttp.AllocationProbe pooled|floor|bytearray <url> [iterations]");
    return 2;
}

string strategy = args[0];
var url = new Uri(args[1]);
int iterations = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 50;

using var client = new HttpClient();
byte[] floorBuffer = new byte[64 * 1024 * 1024];
Func<Task<int>> once = strategy switch
{
    "pooled" => () => Downloads.PooledReadAsync(client, url),
    "floor" => () => Downloads.FloorAsync(client, url, floorBuffer),
    "bytearray" => async () => (await client.GetByteArrayAsync(url).ConfigureAwait(false)).Length,
    _ => throw new ArgumentException($"unknown strategy '{strategy}'"),
};

int length = 0;
// Warm-up: the shared pool keeps arrays per thread and per core; until every thread pool thread
// that resumes our continuations has met the sizes we rent, a rent can still miss and allocate.
for (int i = 0; i < Math.Max(100, iterations); i++)
{
    length = await once().ConfigureAwait(false);
}

long before = GC.GetTotalAllocatedBytes(precise: true);
for (int i = 0; i < iterations; i++)
{
    length = await once().ConfigureAwait(false);
}

long after = GC.GetTotalAllocatedBytes(precise: true);
Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{(after - before) / iterations} {length}"));
return 0;
