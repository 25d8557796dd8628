using System.Buffers;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.InteropServices;

namespace PooledHttp.Buffers;

/// <summary>
/// An <see cref="ArrayPool{T}"/> of bytes for response bodies, governed by one budget: it keeps at most
/// <see cref="MaxRetainedBytes"/> in free arrays, of any mix of sizes, lets go of a return that would go over
/// (taking it back if a rent comes before the GC has collected it), and of arrays nobody has needed for
/// <see cref="IdleTimeout"/> when the GC runs a full collection.
/// </summary>
/// <remarks>
/// <para><b>Sizes.</b> Arrays from <see cref="SmallestPooledArray"/> bytes up to <see cref="MaxArrayLength"/>
/// come in powers of two and are this pool's. Smaller ones are rented from and returned to
/// <see cref="ArrayPool{T}.Shared"/>, whose per-thread slots and per-core stacks, each with its own lock, spread small, frequent rents; they are not
/// counted in the budget, not checked for a second return and not in the metrics. A rent above the largest size
/// gets a fresh array of exactly the size asked for, and its return drops it: past that size a pool buys nothing
/// over an allocation.</para>
/// <para><b>The budget.</b> No count per size: with N bodies of S bytes in flight at once and N × S (each rounded
/// up to a power of two) within the budget, every rent at steady state finds a free array, whatever N is. A
/// return that does not fit may make room only by dropping free arrays at least as large as itself, those
/// returned longest ago first; when they would not make enough, it is refused (the array is left to the GC), as
/// <see cref="ArrayPool{T}.Shared"/> and RecyclableMemoryStream refuse theirs. So a burst of large bodies never
/// pushes out the smaller arrays of steady traffic, and a pool whose bodies got smaller adapts at once; smaller
/// arrays kept for a load that has grown make room when they have been idle for <see cref="IdleTimeout"/> (see
/// Trimming), or at <see cref="Trim"/>. What it keeps never exceeds <see cref="MaxRetainedBytes"/>.
/// <see cref="BodyPool.Create(int, int, string, TimeSpan?, bool)"/> turns "N bodies of about S bytes" into a budget.</para>
/// <para><b>Past the budget.</b> An array the pool lets go of (a refused return, or a free array dropped to make room)
/// is remembered through a weak handle, which does not keep it alive: unless something else still references it, the
/// GC collects it at its next full collection (its next collection, for one under 85,000 bytes), as it would any array
/// let go of. Until then a rent that finds no free array takes it back instead of allocating. Without that, a load
/// larger than the budget allocates an array at every miss and lets one go at as many returns, and the large ones,
/// collected only by full collections, pile up between two of them; with it, the process holds about the bodies in
/// flight, whatever the budget. What the pool holds through a full collection is still at most its budget. Figures in the repository's
/// <c>docs/measurements.md</c>, "Past the budget".</para>
/// <para><b>Ownership.</b> A rented array belongs to the renter until it is returned, once. After the return
/// the pool may hand it to someone else at any moment, so nothing may read or write it again. Returning an
/// array that is already among the free arrays (a second return before anyone rented it again) throws
/// <see cref="InvalidOperationException"/> instead of handing one array to two renters, and so does a second return
/// of an array the pool let go of past the budget while it could still take it back. Not detected: a second
/// return of an array trimmed since, or let go of longer ago than the last 256 of its size, which then may be kept
/// once; arrays below <see cref="SmallestPooledArray"/>, which are the shared pool's; and a stale owner returning
/// an array that somebody has rented since, who cannot be told from that renter. Returning an
/// array that does not have one of the pool's sizes throws <see cref="ArgumentException"/>, as the pools of
/// <see cref="ArrayPool{T}.Create(int, int)"/> do. With <see cref="ClearOnReturn"/> every array is cleared
/// when it comes back, for bodies that carry secrets.</para>
/// <para><b>Trimming.</b> At every gen2 collection the pool drops the arrays returned more than
/// <see cref="IdleTimeout"/> ago, and all of them when the GC reports the machine's memory load as high.
/// The runtime's shared pool trims on similar thresholds (<c>SharedArrayPool.cs</c>: an array idle for 60 s per
/// gen2 collection and partition, everything after 10 s under high memory pressure). A process that
/// allocates too little to collect keeps its free arrays until it does; <see cref="Trim"/> drops them on
/// demand.</para>
/// <para><b>Observing it.</b> The <see cref="System.Diagnostics.Metrics.Meter"/> named <c>PooledHttp</c> publishes,
/// tagged <c>pooledhttp.pool.name</c> with <see cref="Name"/>: <c>pooledhttp.pool.rents</c> (tagged
/// <c>pooledhttp.pool.hit</c>: whether a free array was there), <c>pooledhttp.pool.reclaimed</c> (misses served by an
/// array let go of past the budget and taken back, which allocated nothing), <c>pooledhttp.pool.returns</c> (tagged
/// <c>pooledhttp.pool.kept</c>: false for a return refused by the budget), <c>pooledhttp.pool.trimmed</c> (bytes
/// dropped by trims), and the gauges <c>pooledhttp.pool.retained</c> (bytes) and <c>pooledhttp.pool.retained_arrays</c>.
/// <c>dotnet-counters monitor --counters PooledHttp -p &lt;pid&gt;</c> shows them; OpenTelemetry collects them with
/// <c>AddMeter("PooledHttp")</c>. Nothing is measured while nobody listens.</para>
/// <para><b>Locking.</b> One lock guards the body-sized arrays, so the budget is exact; the work under it is a
/// bucket push or pop and a set lookup, and, for a return over budget, dropping older free arrays. A body read rents and returns a handful of times per request, not per
/// byte. What the lock costs under contention is measured in the repository's <c>docs/measurements.md</c>.</para>
/// </remarks>
[DebuggerDisplay("BoundedArrayPool {RetainedArrays} arrays, {RetainedBytes:N0} of {MaxRetainedBytes:N0} bytes kept")]
public sealed class BoundedArrayPool : ArrayPool<byte>
{
    /// <summary>The smallest array handed out: smaller rents are rounded up to it, as the runtime's pools do.</summary>
    public const int SmallestArray = 16;

    /// <summary>
    /// The smallest array this pool keeps itself: below it, rents go to <see cref="ArrayPool{T}.Shared"/>. A body read
    /// starts at 16 KiB when it does not know the length, and smaller rents (a small body, a one-byte probe) are the
    /// frequent kind that per-core stacks serve best and that would otherwise queue on this pool's lock.
    /// </summary>
    public const int SmallestPooledArray = 16 * 1024;

    /// <summary>The largest array kept unless told otherwise: 64 MiB, the library's default body limit.</summary>
    public const int DefaultMaxArrayLength = 64 * 1024 * 1024;

    /// <summary>How long a free array may sit unused before a gen2 collection drops it: the shared pool's figure.</summary>
    public static readonly TimeSpan DefaultIdleTimeout = TimeSpan.FromSeconds(60);

    /// <summary>The fraction of the GC's high-memory-load threshold past which a trim drops every free array.</summary>
    private const double HighLoadFraction = 0.9;

    private readonly object _gate = new();
    private readonly HashSet<byte[]> _free = new(ReferenceEqualityComparer.Instance);
    private readonly Bucket[] _buckets;
    private readonly TimeProvider _time;
    private long _retainedBytes;
    private int _retainedArrays;

    /// <summary>Creates a pool.</summary>
    /// <param name="maxRetainedBytes">The most bytes kept in free arrays, all sizes together: the budget.</param>
    /// <param name="maxArrayLength">The largest array kept; rounded up to a power of two.</param>
    /// <param name="idleTimeout">How long a free array may go unused before a gen2 collection drops it;
    /// <see cref="DefaultIdleTimeout"/> when <see langword="null"/>; <see cref="Timeout.InfiniteTimeSpan"/>
    /// never drops on age (high memory load still does).</param>
    /// <param name="timeProvider">The clock the idle time is measured on; <see cref="TimeProvider.System"/> when <see langword="null"/>.</param>
    public BoundedArrayPool(long maxRetainedBytes, int maxArrayLength = DefaultMaxArrayLength, TimeSpan? idleTimeout = null, TimeProvider? timeProvider = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxRetainedBytes);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxArrayLength, SmallestPooledArray);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(maxArrayLength, 1 << 30);
        TimeSpan idle = idleTimeout ?? DefaultIdleTimeout;
        if (idle < TimeSpan.Zero && idle != Timeout.InfiniteTimeSpan)
        {
            throw new ArgumentOutOfRangeException(nameof(idleTimeout), idle, "The idle timeout must be zero or more, or infinite.");
        }

        MaxArrayLength = (int)BitOperations.RoundUpToPowerOf2((uint)maxArrayLength);
        MaxRetainedBytes = maxRetainedBytes;
        IdleTimeout = idle;
        _time = timeProvider ?? TimeProvider.System;
        _buckets = new Bucket[BucketIndex(MaxArrayLength) + 1];
        for (int i = 0; i < _buckets.Length; i++)
        {
            _buckets[i] = new Bucket();
        }

        Gen2Callback.Register(this);
        PoolMetrics.Track(this);
    }

    /// <summary>The largest array kept, in bytes.</summary>
    public int MaxArrayLength { get; }

    /// <summary>The most bytes kept in free arrays, all sizes together.</summary>
    public long MaxRetainedBytes { get; }

    /// <summary>How long a free array may go unused before a gen2 collection drops it.</summary>
    public TimeSpan IdleTimeout { get; }

    /// <summary>The bytes held in free arrays right now.</summary>
    public long RetainedBytes => Volatile.Read(ref _retainedBytes);

    /// <summary>The number of free arrays held right now.</summary>
    public int RetainedArrays => Volatile.Read(ref _retainedArrays);

    /// <summary>The name the pool's metrics carry (<c>pooledhttp.pool.name</c>).</summary>
    public string Name { get; init; } = "unnamed";

    /// <summary>Whether every array is cleared when it comes back, whatever the caller's <c>clearArray</c>: for bodies that carry secrets.</summary>
    public bool ClearOnReturn { get; init; }

    /// <inheritdoc />
    public override byte[] Rent(int minimumLength)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(minimumLength);
        if (minimumLength == 0)
        {
            return [];
        }

        // Decided on the size handed out, as Return decides: a rent of 10,000 bytes gets 16 KiB, this pool's smallest.
        if (minimumLength <= SmallestPooledArray / 2)
        {
            return Shared.Rent(minimumLength);
        }

        if (minimumLength > MaxArrayLength)
        {
            return GC.AllocateUninitializedArray<byte>(minimumLength);
        }

        int index = BucketIndex(minimumLength);
        lock (_gate)
        {
            if (_buckets[index].TryTakeNewest(out byte[]? array))
            {
                _free.Remove(array);
                _retainedBytes -= array.Length;
                _retainedArrays--;
                PoolMetrics.Rented(this, hit: true);
                return array;
            }

            // Past the budget: an array this pool let go of and the GC has not collected yet serves as well as a new
            // one. Still a miss (no free array was there: the load is past the budget), but one that allocates nothing.
            if (_buckets[index].Dropped?.TryTake(out array) == true)
            {
                PoolMetrics.Rented(this, hit: false);
                PoolMetrics.Reclaimed(this);
                return array;
            }
        }

        PoolMetrics.Rented(this, hit: false);

        // Uninitialized like the runtime's pools: a renter must never rely on what a rented array holds.
        return GC.AllocateUninitializedArray<byte>(SmallestArray << index);
    }

    /// <summary>
    /// The typical body this pool was made for (<see cref="BodyPool.Create(int, int, string, TimeSpan?, bool)"/>), or 0: a read of unknown length
    /// starts in an array of this size, so it holds one array from its first byte, as a read with a Content-Length does.
    /// </summary>
    internal int TypicalBodySize { get; init; }

    /// <summary>Takes back an array rented from this pool; keeps it if it fits the budget, and otherwise leaves it to the GC.</summary>
    /// <exception cref="ArgumentException">The array does not have one of the pool's sizes.</exception>
    /// <exception cref="InvalidOperationException">The array is already among the pool's free arrays: it was returned twice.</exception>
    public override void Return(byte[] array, bool clearArray = false)
    {
        ArgumentNullException.ThrowIfNull(array);
        if (array.Length == 0 || array.Length > MaxArrayLength)
        {
            if (clearArray || ClearOnReturn)
            {
                Array.Clear(array); // left to the GC, but not with a secret in it
            }

            return; // nothing to keep, or one of the exact-size arrays rented past the largest size
        }

        if (array.Length < SmallestArray || !BitOperations.IsPow2(array.Length))
        {
            throw new ArgumentException($"An array of {array.Length:N0} bytes was not rented from this pool: its sizes are powers of two from {SmallestArray} to {MaxArrayLength:N0}.", nameof(array));
        }

        if (array.Length < SmallestPooledArray)
        {
            Shared.Return(array, clearArray || ClearOnReturn);
            return;
        }

        if (clearArray || ClearOnReturn)
        {
            Array.Clear(array);
        }

        long now = _time.GetTimestamp();
        bool kept;
        lock (_gate)
        {
            int index = BucketIndex(array.Length);
            if (_free.Contains(array) || _buckets[index].Dropped?.Contains(array) == true)
            {
                throw new InvalidOperationException($"An array of {array.Length:N0} bytes was returned to the pool '{Name}' twice: the second return would hand it to two renters at once.");
            }

            // Over budget, room is made only from free arrays at least this large, returned longest ago: a large body
            // must never push out the smaller arrays of steady traffic (which would allocate again, and whose
            // returns would push it out in turn), while a pool whose bodies got smaller still adapts. Otherwise the
            // return is refused.
            kept = _retainedBytes + array.Length <= MaxRetainedBytes || MakeRoom(index, array.Length);
            if (kept)
            {
                _buckets[index].Add(array, now);
                _free.Add(array);
                _retainedBytes += array.Length;
                _retainedArrays++;
            }
            else
            {
                _buckets[index].Drop(array);
            }
        }

        PoolMetrics.Returned(this, kept);
    }

    /// <summary>Drops every free array returned at least <paramref name="idleFor"/> ago.</summary>
    /// <param name="idleFor">How long an array must have been free to go; <see cref="TimeSpan.Zero"/> drops them all.</param>
    /// <returns>The bytes dropped.</returns>
    public long Trim(TimeSpan idleFor)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(idleFor, TimeSpan.Zero);
        long now = _time.GetTimestamp();
        long dropped = 0;
        lock (_gate)
        {
            foreach (Bucket bucket in _buckets)
            {
                while (bucket.TryPeekOldest(out long returnedAt, out int length) && _time.GetElapsedTime(returnedAt, now) >= idleFor)
                {
                    _free.Remove(bucket.RemoveOldest());
                    _retainedBytes -= length;
                    _retainedArrays--;
                    dropped += length;
                }
            }
        }

        PoolMetrics.Trimmed(this, dropped);
        return dropped;
    }

    /// <summary>What a gen2 collection does: drop the idle arrays, or all of them when memory is short.</summary>
    private void TrimAfterFullCollection()
    {
        if (RetainedArrays == 0)
        {
            return;
        }

        GCMemoryInfo info = GC.GetGCMemoryInfo();
        bool highLoad = info.MemoryLoadBytes >= info.HighMemoryLoadThresholdBytes * HighLoadFraction;
        if (highLoad)
        {
            Trim(TimeSpan.Zero);
        }
        else if (IdleTimeout != Timeout.InfiniteTimeSpan)
        {
            Trim(IdleTimeout);
        }
    }

    /// <summary>
    /// Drops free arrays of bucket <paramref name="index"/> or larger, returned longest ago first, until
    /// <paramref name="length"/> more bytes fit the budget; drops nothing when even all of them would not make room.
    /// Called under the lock.
    /// </summary>
    private bool MakeRoom(int index, int length)
    {
        long reclaimable = 0;
        for (int i = index; i < _buckets.Length; i++)
        {
            reclaimable += _buckets[i].Bytes;
        }

        if (_retainedBytes - reclaimable + length > MaxRetainedBytes)
        {
            return false;
        }

        while (_retainedBytes + length > MaxRetainedBytes)
        {
            Bucket? oldest = null;
            long oldestAt = long.MaxValue;
            for (int i = index; i < _buckets.Length; i++)
            {
                if (_buckets[i].TryPeekOldest(out long returnedAt, out _) && returnedAt < oldestAt)
                {
                    oldest = _buckets[i];
                    oldestAt = returnedAt;
                }
            }

            byte[] dropped = oldest!.RemoveOldest();
            _free.Remove(dropped);
            _retainedBytes -= dropped.Length;
            _retainedArrays--;
            oldest.Drop(dropped);
        }

        return true;
    }

    /// <summary>0 for sizes up to 16 bytes, 1 for up to 32, and so on.</summary>
    private static int BucketIndex(int length)
        => BitOperations.Log2(BitOperations.RoundUpToPowerOf2((uint)Math.Max(length, SmallestArray))) - BitOperations.Log2(SmallestArray);

    /// <summary>
    /// The free arrays of one size in a ring, oldest at the head, newest at the tail, each with the time it
    /// was returned. It grows by doubling as the budget allows: the budget, not the ring, limits the count.
    /// </summary>
    private sealed class Bucket
    {
        private const int InitialCapacity = 4;

        private byte[]?[] _arrays = new byte[InitialCapacity][];
        private long[] _returnedAt = new long[InitialCapacity];
        private int _head;
        private int _count;

        /// <summary>The bytes of the free arrays in this bucket.</summary>
        public long Bytes { get; private set; }

        /// <summary>Arrays of this size the pool let go of, for as long as the GC leaves them; made at the first.</summary>
        public DroppedArrays? Dropped { get; private set; }

        /// <summary>Remembers an array let go of; best effort: short of memory for the handle, the array is simply garbage.</summary>
        public void Drop(byte[] array)
        {
            try
            {
                (Dropped ??= new DroppedArrays()).Add(array);
            }
            catch (OutOfMemoryException)
            {
                // Nothing to undo: the books were settled before, and an array not remembered is only not taken back.
            }
        }

        public void Add(byte[] array, long returnedAt)
        {
            if (_count == _arrays.Length)
            {
                Grow();
            }

            int tail = (_head + _count) % _arrays.Length;
            _arrays[tail] = array;
            _returnedAt[tail] = returnedAt;
            _count++;
            Bytes += array.Length;
        }

        public bool TryTakeNewest([System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out byte[]? array)
        {
            if (_count == 0)
            {
                array = null;
                return false;
            }

            _count--;
            int tail = (_head + _count) % _arrays.Length;
            array = _arrays[tail]!;
            _arrays[tail] = null;
            Bytes -= array.Length;
            return true;
        }

        public bool TryPeekOldest(out long returnedAt, out int length)
        {
            returnedAt = _count == 0 ? 0 : _returnedAt[_head];
            length = _count == 0 ? 0 : _arrays[_head]!.Length;
            return _count > 0;
        }

        public byte[] RemoveOldest()
        {
            byte[] array = _arrays[_head]!;
            _arrays[_head] = null;
            _head = (_head + 1) % _arrays.Length;
            _count--;
            Bytes -= array.Length;
            return array;
        }

        private void Grow()
        {
            byte[]?[] arrays = new byte[_arrays.Length * 2][];
            var returnedAt = new long[_arrays.Length * 2];
            for (int i = 0; i < _count; i++)
            {
                int from = (_head + i) % _arrays.Length;
                arrays[i] = _arrays[from];
                returnedAt[i] = _returnedAt[from];
            }

            _arrays = arrays;
            _returnedAt = returnedAt;
            _head = 0;
        }
    }

    /// <summary>
    /// An object that is always garbage: the GC finalizes it after collecting its generation, and the
    /// finalizer re-registers it, so once it has aged into gen2 it runs after every gen2 collection. It holds
    /// its pool through a weak handle, so a pool nobody uses any more is collected and the callback ends
    /// with it. (Not a <see cref="WeakReference{T}"/>: that is an object with a finalizer of its own, which
    /// may run first and clear the reference, and the callback would then end at its first run.)
    /// </summary>
    private sealed class Gen2Callback
    {
        private GCHandle _pool;

        private Gen2Callback(BoundedArrayPool pool) => _pool = GCHandle.Alloc(pool, GCHandleType.Weak);

        public static void Register(BoundedArrayPool pool) => _ = new Gen2Callback(pool);

        ~Gen2Callback()
        {
            if (_pool.Target is not BoundedArrayPool pool)
            {
                _pool.Free();
                return;
            }

            try
            {
                pool.TrimAfterFullCollection();
            }
            catch (Exception)
            {
                // A finalizer must not throw; a failed trim only means the arrays stay until the next one.
            }

            GC.ReRegisterForFinalize(this);
        }
    }
}
