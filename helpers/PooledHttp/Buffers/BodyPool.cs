namespace PooledHttp.Buffers;

/// <summary>
/// The pool the pooled reads use unless given another: a <see cref="BoundedArrayPool"/> sized for bodies,
/// not <see cref="System.Buffers.ArrayPool{T}.Shared"/>.
/// </summary>
/// <remarks>
/// <para><b>Why not the shared pool.</b> <see cref="System.Buffers.ArrayPool{T}.Shared"/> keeps one array per
/// size in each thread's own slot before its per-core stacks. An async download rents on one thread-pool
/// thread and returns on whichever thread resumed it, so arrays pile up in the slots of threads that
/// seldom rent again, and a rent often finds nothing and allocates. Measured on the 2-core workshop
/// machine, 1 MiB chunked downloads in steady state: 3 KiB to 130 KiB per download with the shared pool,
/// a steady 3.6 KiB with a pool of one lock (see the README).</para>
/// <para><b>What it keeps, and for how long.</b> At most <see cref="ArraysPerSize"/> free arrays of each
/// power-of-two size up to <see cref="MaxArrayLength"/>, and at most <see cref="MaxRetainedBytes"/> in all;
/// an array left unused for a minute goes at the next gen2 collection, and all of them go when memory is
/// short.</para>
/// <para><b>The trade-off, measured</b> (2-core workshop machine, .NET 10, the allocation tests' probe). One
/// download at a time of every size from 64 KiB to 64 MiB, both framings: 92 KiB allocated per sweep of
/// 170 MiB, and the heap holds 134 MiB afterwards; the budget costs nothing there. Four 64 MiB downloads at
/// once: without the budget the pool kept up to four arrays of every size, and the heap held 357 to 487 MiB
/// for the life of the process, at 8 to 34 MiB allocated per round of four; with it the heap holds 67 MiB
/// afterwards, and a round allocates 236 to 413 MiB, because four reads need four of each large array and
/// only 128 MiB is kept.
/// Pass <see cref="System.Buffers.ArrayPool{T}.Shared"/>, or a <see cref="BoundedArrayPool"/> with a larger
/// budget, where many large bodies are read at once and the memory is there to keep.</para>
/// </remarks>
public static class BodyPool
{
    /// <summary>The largest array kept: 64 MiB, the largest body the workshop downloads.</summary>
    public const int MaxArrayLength = 64 * 1024 * 1024;

    /// <summary>Arrays kept per size: downloads in flight at once are few, and each holds one array at a time.</summary>
    public const int ArraysPerSize = 4;

    /// <summary>
    /// The budget, 128 MiB: room for one array of every size up to <see cref="MaxArrayLength"/>
    /// (16 B + 32 B + ... + 64 MiB &lt; 128 MiB). A read that grows its array one power of two at a time
    /// passes through each size, so one download at a time of any size up to the limit finds every array it
    /// needs; many downloads at once share what fits and allocate the rest.
    /// </summary>
    public const long MaxRetainedBytes = 2L * MaxArrayLength;

    /// <summary>The pool.</summary>
    public static BoundedArrayPool Shared { get; } = new(MaxArrayLength, ArraysPerSize, MaxRetainedBytes, BoundedArrayPool.DefaultIdleTimeout);
}
