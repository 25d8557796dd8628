using System.Buffers;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.InteropServices;

namespace PooledHttp.Buffers;

/// <summary>
/// An <see cref="ArrayPool{T}"/> of bytes governed by one budget: it keeps at most
/// <see cref="MaxRetainedBytes"/> in free arrays, of any mix of sizes, gives the least recently returned
/// ones up first when a return would go over, and lets go of arrays nobody has needed for
/// <see cref="IdleTimeout"/> when the GC runs a full collection.
/// </summary>
/// <remarks>
/// <para><b>Sizes.</b> Arrays come in powers of two from <see cref="SmallestArray"/> bytes up to
/// <see cref="MaxArrayLength"/>. A rent above the largest size gets a fresh array of exactly the size asked
/// for, and its return drops it: past that size a pool buys nothing over an allocation.</para>
/// <para><b>No count per size.</b> The budget alone decides what is kept. With N bodies of S bytes in flight
/// at once and N × S (each rounded up to a power of two) within the budget, every rent at steady state
/// finds a free array, whatever N is. Past the budget the pool keeps what fits and the rest is allocated
/// and collected, so what it holds never exceeds <see cref="MaxRetainedBytes"/>.
/// <see cref="BodyPool.Create"/> turns "N bodies of about S bytes" into a budget.</para>
/// <para><b>Ownership.</b> A rented array belongs to the renter until it is returned, once. After the return
/// the pool may hand it to someone else at any moment, so nothing may read or write it again. Returning an
/// array that does not have one of the pool's sizes throws <see cref="ArgumentException"/>, as the pools of
/// <see cref="ArrayPool{T}.Create(int, int)"/> do.</para>
/// <para><b>Trimming.</b> At every gen2 collection the pool drops the arrays returned more than
/// <see cref="IdleTimeout"/> ago, and all of them when the GC reports the machine's memory load as high.
/// The shared pool of the runtime trims the same way (after 60 s, sooner under pressure). A process that
/// allocates too little to collect keeps its free arrays until it does; <see cref="Trim"/> drops them on
/// demand.</para>
/// <para><b>Locking.</b> One lock guards the whole pool, so the budget is exact. A body read rents and
/// returns a handful of times per request, not per byte. Measured on the 2-core workshop machine
/// (<c>tools/PoolContention</c>): 64 tasks renting and returning 1 MiB arrays as fast as they can, 85 to 170 ns
/// per rent and return, against 8 to 11 ns for <see cref="ArrayPool{T}.Shared"/>'s per-core stacks; a paced
/// 1 MiB download lasts over 30 ms, so the lock costs it well under a microsecond.</para>
/// </remarks>
[DebuggerDisplay("BoundedArrayPool {RetainedArrays} arrays, {RetainedBytes:N0} of {MaxRetainedBytes:N0} bytes kept")]
public sealed class BoundedArrayPool : ArrayPool<byte>
{
    /// <summary>The smallest array handed out: smaller rents are rounded up to it, as the runtime's pools do.</summary>
    public const int SmallestArray = 16;

    /// <summary>The largest array kept unless told otherwise: 64 MiB, the library's default body limit.</summary>
    public const int DefaultMaxArrayLength = 64 * 1024 * 1024;

    /// <summary>How long a free array may sit unused before a gen2 collection drops it: the shared pool's figure.</summary>
    public static readonly TimeSpan DefaultIdleTimeout = TimeSpan.FromSeconds(60);

    /// <summary>The fraction of the GC's high-memory-load threshold past which a trim drops every free array.</summary>
    private const double HighLoadFraction = 0.9;

    private readonly object _gate = new();
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
        ArgumentOutOfRangeException.ThrowIfLessThan(maxArrayLength, SmallestArray);
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

    /// <inheritdoc />
    public override byte[] Rent(int minimumLength)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(minimumLength);
        if (minimumLength == 0)
        {
            return [];
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
                _retainedBytes -= array.Length;
                _retainedArrays--;
                return array;
            }
        }

        // Uninitialized like the runtime's pools: a renter must never rely on what a rented array holds.
        return GC.AllocateUninitializedArray<byte>(SmallestArray << index);
    }

    /// <summary>
    /// The typical body this pool was made for (<see cref="BodyPool.Create"/>), or 0: a read of unknown length
    /// starts in an array of this size, so it holds one array from its first byte, as a read with a Content-Length does.
    /// </summary>
    internal int TypicalBodySize { get; init; }

    /// <summary>
    /// The size, rounded up to a power of two, of the last body of unknown length read into this pool's arrays:
    /// where the next such read starts if a free array of that size is there (see <see cref="TryRentFree"/>).
    /// A race between two reads only picks one of their sizes.
    /// </summary>
    internal int UnknownLengthHint;

    /// <summary>A free array of the size class of <paramref name="minimumLength"/>, or <see langword="null"/> when there is none: never allocates.</summary>
    internal byte[]? TryRentFree(int minimumLength)
    {
        if (minimumLength <= 0 || minimumLength > MaxArrayLength)
        {
            return null;
        }

        lock (_gate)
        {
            if (_buckets[BucketIndex(minimumLength)].TryTakeNewest(out byte[]? array))
            {
                _retainedBytes -= array.Length;
                _retainedArrays--;
                return array;
            }
        }

        return null;
    }

    /// <inheritdoc />
    public override void Return(byte[] array, bool clearArray = false)
    {
        ArgumentNullException.ThrowIfNull(array);
        if (array.Length == 0 || array.Length > MaxArrayLength)
        {
            return; // nothing to keep, or one of the exact-size arrays rented past the largest size
        }

        if (array.Length < SmallestArray || !BitOperations.IsPow2(array.Length))
        {
            throw new ArgumentException($"An array of {array.Length:N0} bytes was not rented from this pool: its sizes are powers of two from {SmallestArray} to {MaxArrayLength:N0}.", nameof(array));
        }

        if (clearArray)
        {
            Array.Clear(array);
        }

        if (array.Length > MaxRetainedBytes)
        {
            return;
        }

        long now = _time.GetTimestamp();
        lock (_gate)
        {
            // Over budget: give up the arrays returned longest ago until this one fits. The newest return
            // is the likeliest to be rented again soon.
            while (_retainedBytes + array.Length > MaxRetainedBytes)
            {
                DropOldest();
            }

            _buckets[BucketIndex(array.Length)].Add(array, now);
            _retainedBytes += array.Length;
            _retainedArrays++;
        }
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
                    bucket.RemoveOldest();
                    _retainedBytes -= length;
                    _retainedArrays--;
                    dropped += length;
                }
            }
        }

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

    private void DropOldest()
    {
        Bucket? oldest = null;
        long oldestAt = long.MaxValue;
        foreach (Bucket bucket in _buckets)
        {
            if (bucket.TryPeekOldest(out long returnedAt, out _) && returnedAt < oldestAt)
            {
                oldest = bucket;
                oldestAt = returnedAt;
            }
        }

        int length = oldest!.RemoveOldest(); // callers only get here while something is retained
        _retainedBytes -= length;
        _retainedArrays--;
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
            return true;
        }

        public bool TryPeekOldest(out long returnedAt, out int length)
        {
            returnedAt = _count == 0 ? 0 : _returnedAt[_head];
            length = _count == 0 ? 0 : _arrays[_head]!.Length;
            return _count > 0;
        }

        public int RemoveOldest()
        {
            int length = _arrays[_head]!.Length;
            _arrays[_head] = null;
            _head = (_head + 1) % _arrays.Length;
            _count--;
            return length;
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
