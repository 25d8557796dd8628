using System.Numerics;

namespace PooledHttp.Buffers;

/// <summary>
/// The pool the pooled reads use unless given another (<see cref="Shared"/>), and the one line that sizes a
/// pool for a service (<see cref="Create(int, int, string, TimeSpan?, bool)"/>): a <see cref="BoundedArrayPool"/> whose budget is the bodies a
/// process has in flight at once.
/// </summary>
/// <remarks>
/// <para><b>Sizing a pool.</b> A read holds one array per body in flight, of the body's size rounded up to a
/// power of two. On a pool made by <see cref="Create(int, int, string, TimeSpan?, bool)"/> a body without a Content-Length starts in an
/// array of the typical size, so a body up to that size holds one array from its first byte, as a body with a
/// length does. A larger body without a length grows fourfold from there: one byte past a typical 16 MiB ends in
/// a 64 MiB array, which the budget below does not cover. So the budget is the bodies in flight times the typical
/// size rounded up, plus half again, room for the larger bodies the typical size does not describe:
/// <code>var pool = BodyPool.Create(bodiesInFlight: 64, typicalBodySize: 16 * 1024 * 1024); // 1.5 GiB at most</code>
/// Pass it to every pooled read (<c>client.GetPooledAsync(url, pool: pool)</c>). A return past the budget makes
/// room only from free arrays at least as large, and is otherwise refused: that body's array is let go, and the
/// smaller arrays kept serve the load they were kept for; nothing fails. A rent takes a let-go array back while the
/// GC has not collected it, so a load past the budget costs the process about the bodies in flight, not a pile of
/// dropped arrays; what a full collection then takes, the next rents allocate again (<see cref="BoundedArrayPool"/>,
/// "Past the budget"). On a plain <see cref="BoundedArrayPool"/>
/// a body without a length grows through smaller arrays (16 KiB, fourfold) that are returned and kept too: give such
/// a pool room for them, or make it with <see cref="Create(int, int, string, TimeSpan?, bool)"/>.</para>
/// <para><b>Why not the shared pool.</b> <see cref="System.Buffers.ArrayPool{T}.Shared"/> keeps its arrays in
/// per-thread slots and per-core stacks of 32 per size, and lets go of them only at gen2 collections: it does
/// well under load, but how much it keeps is not yours to set (about a gigabyte after 64 downloads of 16 MiB
/// at once), and a burst can leave arrays stranded in the slots of threads that seldom rent again.
/// A <see cref="BoundedArrayPool"/> keeps at most its budget.</para>
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
    /// <see cref="MaxArrayLength"/>. A service that needs more sizes its own pool with <see cref="Create(int, int, string, TimeSpan?, bool)"/>.
    /// </summary>
    public const long MaxRetainedBytes = 4L * MaxArrayLength;

    /// <summary>What a body in flight costs the budget, as a multiple of its rounded size: its one array, and half
    /// again for bodies larger than the typical one.</summary>
    private const double BudgetPerBody = 1.5;

    /// <summary>The pool.</summary>
    public static BoundedArrayPool Shared { get; } = new(MaxRetainedBytes, MaxArrayLength) { Name = "shared" };

    /// <summary>
    /// A pool for <paramref name="bodiesInFlight"/> bodies of about <paramref name="typicalBodySize"/> bytes read
    /// at once: its budget is their sizes rounded up to a power of two, plus half again for larger bodies. A body
    /// without a Content-Length read into it starts in an array of the typical size.
    /// </summary>
    /// <param name="bodiesInFlight">The most downloads the service has in flight at once.</param>
    /// <param name="typicalBodySize">The size of a typical body; larger bodies are read too, from what is left.</param>
    /// <param name="name">The name the pool's metrics carry (<see cref="BoundedArrayPool.Name"/>).</param>
    /// <param name="idleTimeout">How long a free array may go unused; <see cref="BoundedArrayPool.DefaultIdleTimeout"/> when <see langword="null"/>.</param>
    /// <param name="clearOnReturn">Whether every array is cleared when it comes back (<see cref="BoundedArrayPool.ClearOnReturn"/>).</param>
    /// <remarks>Every setting after the first two is optional and may be given by name:
    /// <c>BodyPool.Create(64, 1 &lt;&lt; 20, clearOnReturn: true)</c>.</remarks>
    public static BoundedArrayPool Create(int bodiesInFlight, int typicalBodySize, string name = "unnamed", TimeSpan? idleTimeout = null, bool clearOnReturn = false)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(bodiesInFlight);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(typicalBodySize);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(typicalBodySize, 1 << 30);
        ArgumentNullException.ThrowIfNull(name);
        long rounded = (long)BitOperations.RoundUpToPowerOf2((uint)typicalBodySize);

        // A body smaller than the pool's smallest array still holds one of those (a read without a length starts there).
        long perBody = Math.Max(rounded, BoundedArrayPool.SmallestPooledArray);
        long budget = (long)(bodiesInFlight * perBody * BudgetPerBody);
        return new BoundedArrayPool(budget, (int)Math.Max(rounded, MaxArrayLength), idleTimeout)
        {
            TypicalBodySize = typicalBodySize,
            Name = name,
            ClearOnReturn = clearOnReturn,
        };
    }
}
