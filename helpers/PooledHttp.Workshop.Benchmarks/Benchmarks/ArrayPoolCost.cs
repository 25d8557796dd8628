using System.Buffers;
using BenchmarkDotNet.Attributes;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 01, after S1: what a fresh array costs against renting one, from 100 bytes to 10 MB.
/// Run it with a job that does not force a GC between iterations (<c>WithGcForce(false)</c>), as S1
/// did, so the cost of the collections that <see cref="Allocate"/> causes lands in its own time.
/// </summary>
public class ArrayPoolCost
{
    private ArrayPool<byte> _sizeAware = null!;

    /// <summary>The array length in bytes: S1's sizes, 1E2 to 1E7.</summary>
    [Params(100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000)]
    public int Size { get; set; }

    /// <summary>A pool made for this size: S1's "aware" pool, whose largest array is one byte longer than needed.</summary>
    [GlobalSetup]
    public void Setup() => _sizeAware = ArrayPool<byte>.Create(maxArrayLength: Size + 1, maxArraysPerBucket: 10);

    /// <summary>A new array every time: Gen0 below 85,000 bytes, the large object heap from there on.</summary>
    [Benchmark(Baseline = true)]
    public byte[] Allocate() => NewArray(Size);

    /// <summary>Rent from and return to <see cref="ArrayPool{T}.Shared"/>.</summary>
    [Benchmark]
    public int RentAndReturn_Shared() => RentAndReturn(ArrayPool<byte>.Shared, Size);

    /// <summary>Rent from and return to a pool created for this size.</summary>
    [Benchmark]
    public int RentAndReturn_Aware() => RentAndReturn(_sizeAware, Size);

    /// <summary>What <see cref="Allocate"/> measures: a new, zeroed array of <paramref name="size"/> bytes.</summary>
    public static byte[] NewArray(int size) => new byte[size];

    /// <summary>What the two rent benchmarks measure: one rent and its return.</summary>
    /// <returns>The length of the array the pool lent, which may be more than <paramref name="size"/>.</returns>
    public static int RentAndReturn(ArrayPool<byte> pool, int size)
    {
        ArgumentNullException.ThrowIfNull(pool);
        byte[] array = pool.Rent(size);
        int length = array.Length;
        pool.Return(array);
        return length;
    }
}
