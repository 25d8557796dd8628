using System.Numerics;

namespace PooledHttp.Buffers;

/// <summary>
/// The pool the pooled reads use unless given another (<see cref="Shared"/>), and the one line that sizes a
/// pool for a service (<see cref="Create"/>): a <see cref="BoundedArrayPool"/> whose budget is the bodies a
/// process has in flight at once.
/// </summary>
/// <remarks>
/// <para><b>Sizing a pool.</b> A read holds one array per body in flight, of the body's size rounded up to a
/// power of two; a body without a Content-Length starts in an array of the typical size on a pool made by
/// <see cref="Create"/> (elsewhere it grows through smaller arrays, each four times the last, from 16 KiB), and
/// larger bodies grow from there. So the budget a service needs is its downloads in flight at once times its
/// typical body size, plus half again:
/// <code>var pool = BodyPool.Create(bodiesInFlight: 64, typicalBodySize: 16 * 1024 * 1024); // 1.5 GiB at most</code>
/// Pass it to every pooled read (<c>client.GetPooledAsync(url, pool: pool)</c>). Bodies beyond what the budget
/// holds are allocated and collected as if there were no pool; nothing fails.</para>
/// <para><b>Why not the shared pool.</b> <see cref="System.Buffers.ArrayPool{T}.Shared"/> keeps its arrays in
/// per-thread slots and per-core stacks of 32 per size, and lets go of them only at gen2 collections: it does
/// well under load, but how much it keeps is not yours to set (about a gigabyte after 64 downloads of 16 MiB
/// at once), and a burst can leave arrays stranded in the slots of threads that seldom rent again.
/// A <see cref="BoundedArrayPool"/> keeps exactly its budget.</para>
/// <para>Measured figures, with the load each was taken under, are in the repository's
/// <c>docs/measurements.md</c>.</para>
/// </remarks>
public static class BodyPool
{
    /// <summary>The largest array kept: 64 MiB, the reads' default limit (<c>PooledBodyReader.DefaultMaxBytes</c>).</summary>
    public const int MaxArrayLength = BoundedArrayPool.DefaultMaxArrayLength;

    /// <summary>
    /// The default budget, 256 MiB: 64 bodies of 1 MiB or 8 of 16 MiB (the runtime's own up-front cap) read at
    /// once, with or without a Content-Length, or one body at a time of every size up to
    /// <see cref="MaxArrayLength"/>. A service that needs more sizes its own pool with <see cref="Create"/>.
    /// </summary>
    public const long MaxRetainedBytes = 4L * MaxArrayLength;

    /// <summary>
    /// What a body in flight costs the budget, as a multiple of its rounded size: the array itself, plus the
    /// smaller arrays a body of unknown length grows through (a third of it, growing fourfold) and the reads'
    /// small probes.
    /// </summary>
    private const double BudgetPerBody = 1.5;

    /// <summary>The pool.</summary>
    public static BoundedArrayPool Shared { get; } = new(MaxRetainedBytes, MaxArrayLength);

    /// <summary>
    /// A pool for <paramref name="bodiesInFlight"/> bodies of about <paramref name="typicalBodySize"/> bytes read
    /// at once: its budget is their sizes rounded up to a power of two, plus half again for the arrays a larger body
    /// grows through. A body without a Content-Length read into it starts in an array of the typical size, so it
    /// holds one array from its first byte, as a body with one does.
    /// </summary>
    /// <param name="bodiesInFlight">The most downloads the service has in flight at once.</param>
    /// <param name="typicalBodySize">The size of a typical body; larger bodies are read too, from what is left.</param>
    /// <param name="idleTimeout">How long a free array may go unused; <see cref="BoundedArrayPool.DefaultIdleTimeout"/> when <see langword="null"/>.</param>
    public static BoundedArrayPool Create(int bodiesInFlight, int typicalBodySize, TimeSpan? idleTimeout = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(bodiesInFlight);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(typicalBodySize);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(typicalBodySize, 1 << 30);
        long rounded = (long)BitOperations.RoundUpToPowerOf2((uint)typicalBodySize);
        long budget = (long)(bodiesInFlight * rounded * BudgetPerBody);
        return new BoundedArrayPool(budget, (int)Math.Max(rounded, MaxArrayLength), idleTimeout) { TypicalBodySize = typicalBodySize };
    }
}
