#:project ../../../helpers/PooledHttp/PooledHttp.csproj
#:property PublishAot=false
// Does BoundedArrayPool's one lock hold when many downloads rent and return at once? Times a rent and a
// return from 1, 2 and 64 tasks, all on one pool, against ArrayPool<byte>.Shared (per-core stacks, no global
// lock) doing the same: 1 MiB arrays, which take the lock, and 4 KiB arrays, which the pool hands to the
// shared pool. A download of 1 MiB rents and returns a handful of times and lasts milliseconds; the lock
// matters only if a pair costs a visible share of that.
// Usage: dotnet run -c Release tools/Experiments/PoolContention/pool-contention.cs
using System.Buffers;
using System.Diagnostics;
using PooledHttp.Buffers;

const int PairsPerTask = 200_000;

static double NanosecondsPerPair(ArrayPool<byte> pool, int tasks, int Size)
{
    // Warm: every task's array exists once.
    Parallel.For(0, tasks, _ => pool.Return(pool.Rent(Size)));
    var clock = Stopwatch.StartNew();
    Task.WaitAll([.. Enumerable.Range(0, tasks).Select(_ => Task.Run(() =>
    {
        for (int i = 0; i < PairsPerTask; i++)
        {
            byte[] array = pool.Rent(Size);
            array[0] = 1;
            pool.Return(array);
        }
    }))]);
    clock.Stop();
    // Wall time per pair as the machine sees it: with more tasks than cores, pairs queue for the cores too.
    return clock.Elapsed.TotalNanoseconds / ((double)PairsPerTask * tasks);
}

Console.WriteLine($"{Environment.ProcessorCount} cores, .NET {Environment.Version}");
foreach (int size in new[] { 1024 * 1024, 4 * 1024 })
{
    foreach (int tasks in new[] { 1, 2, 64 })
    {
        for (int round = 0; round < 3; round++)
        {
            var bounded = new BoundedArrayPool(256L * 1024 * 1024);
            Console.WriteLine($"{size / 1024,5} KiB, {tasks,2} tasks, round {round + 1}: BoundedArrayPool {NanosecondsPerPair(bounded, tasks, size),6:0.0} ns per rent+return; ArrayPool<byte>.Shared {NanosecondsPerPair(ArrayPool<byte>.Shared, tasks, size),6:0.0} ns");
        }
    }
}
