using System.Buffers;

namespace PooledHttp.Buffers;

/// <summary>
/// The pool the pooled reads use unless given another: a lock-based pool made with
/// <see cref="ArrayPool{T}.Create(int, int)"/>, not <see cref="ArrayPool{T}.Shared"/>.
/// </summary>
/// <remarks>
/// <para><b>Why not the shared pool.</b> <see cref="ArrayPool{T}.Shared"/> keeps one array per size in
/// each thread's own slot before its per-core stacks. An async download rents on one thread-pool
/// thread and returns on whichever thread resumed it, so arrays pile up in the slots of threads that
/// seldom rent again, and a rent often finds nothing and allocates. Measured on the 2-core workshop
/// machine, 1 MiB chunked downloads in steady state: 3 KB to 130 KB per download with the shared pool,
/// a steady 3.6 KB with this one (see the README).</para>
/// <para><b>The cost.</b> This pool never trims: it keeps up to <see cref="ArraysPerSize"/> arrays of each
/// power-of-two size up to <see cref="MaxArrayLength"/>, for the life of the process. Bodies larger than
/// that are rented fresh and dropped on return, like any allocation. Pass
/// <see cref="ArrayPool{T}.Shared"/> (or your own pool) where that trade-off is wrong for you.</para>
/// </remarks>
public static class BodyPool
{
    /// <summary>The largest array kept: 64 MiB, the largest body the workshop downloads.</summary>
    public const int MaxArrayLength = 64 * 1024 * 1024;

    /// <summary>Arrays kept per size: downloads in flight at once are few, and each holds one array at a time.</summary>
    public const int ArraysPerSize = 4;

    /// <summary>The pool.</summary>
    public static ArrayPool<byte> Shared { get; } = ArrayPool<byte>.Create(MaxArrayLength, ArraysPerSize);
}
