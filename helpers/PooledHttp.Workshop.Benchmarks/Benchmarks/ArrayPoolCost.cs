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
    public byte[] Allocate() => new byte[Size];

    /// <summary>Rent from and return to <see cref="ArrayPool{T}.Shared"/>.</summary>
    [Benchmark]
    public int RentAndReturn_Shared()
    {
        byte[] array = ArrayPool<byte>.Shared.Rent(Size);
        int length = array.Length;
        ArrayPool<byte>.Shared.Return(array);
        return length;
    }

    /// <summary>Rent from and return to a pool created for this size.</summary>
    [Benchmark]
    public int RentAndReturn_Aware()
    {
        byte[] array = _sizeAware.Rent(Size);
        int length = array.Length;
        _sizeAware.Return(array);
        return length;
    }
}
