using System.Buffers;
using System.Diagnostics;

namespace PooledHttp.Buffers;

/// <summary>
/// A lease on an array rented from an <see cref="ArrayPool{T}"/>, exposing exactly the bytes that
/// were written into it.
/// </summary>
/// <remarks>
/// <para><b>Ownership.</b> Whoever receives a <see cref="PooledBuffer"/> owns it and must dispose it
/// exactly once, normally with a <c>using</c> statement. Disposing gives the array back to the pool it
/// came from; disposing again does nothing.</para>
/// <para><b>After dispose.</b> <see cref="Memory"/>, <see cref="Span"/> and <see cref="Length"/> throw
/// <see cref="ObjectDisposedException"/>. A <see cref="Memory{T}"/> or span taken <i>before</i> dispose
/// still points at the array, which by then may belong to somebody else: never keep one past the
/// lease's lifetime, and copy out (<see cref="ToArray"/>) what must outlive it.</para>
/// <para>Not thread-safe for concurrent use, but <see cref="Dispose"/> is safe to race: the array is
/// returned by whichever call gets there first.</para>
/// </remarks>
[DebuggerDisplay("{DebuggerText,nq}")]
public sealed class PooledBuffer : IMemoryOwner<byte>
{
    private readonly ArrayPool<byte>? _pool;
    private readonly int _length;
    private byte[]? _array;

    private string DebuggerText => _array is null ? "PooledBuffer (disposed)" : $"PooledBuffer {_length:N0} bytes in a {_array.Length:N0}-byte array{(_pool is null ? ", not pooled" : string.Empty)}";

    /// <summary>
    /// A new empty lease, which owns no array: disposing it gives nothing back to any pool. It is a lease like any other all
    /// the same: after <see cref="Dispose"/>, <see cref="IsDisposed"/> is <see langword="true"/> and <see cref="Length"/>,
    /// <see cref="Span"/> and <see cref="Memory"/> throw <see cref="ObjectDisposedException"/>. Each call returns a lease of
    /// its own, so one owner's dispose reaches no other.
    /// </summary>
    public static PooledBuffer Empty => new(null, [], 0);

    /// <summary>Takes ownership of <paramref name="array"/>, rented from <paramref name="pool"/>.</summary>
    /// <param name="pool">The pool to return the array to, or <see langword="null"/> when the array was not rented.</param>
    /// <param name="array">The array; from now on this lease alone returns it.</param>
    /// <param name="length">How many bytes at the start of the array are data.</param>
    internal PooledBuffer(ArrayPool<byte>? pool, byte[] array, int length)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(length);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(length, array.Length);
        _pool = pool;
        _array = array;
        _length = length;
    }

    /// <summary>The number of bytes of data.</summary>
    public int Length => _array is null ? throw Disposed() : _length;

    /// <summary>The data: exactly <see cref="Length"/> bytes, never the spare tail of the rented array.</summary>
    public Memory<byte> Memory => new(_array ?? throw Disposed(), 0, _length);

    /// <summary>The data as a span.</summary>
    public Span<byte> Span => new(_array ?? throw Disposed(), 0, _length);

    /// <summary>Whether <see cref="Dispose"/> has run.</summary>
    public bool IsDisposed => _array is null;

    /// <summary>Copies the data into a new array that the caller owns outright.</summary>
    public byte[] ToArray() => Span.ToArray();

    /// <summary>Returns the array to its pool. Idempotent.</summary>
    public void Dispose()
    {
        byte[]? array = Interlocked.Exchange(ref _array, null);
        if (array is not null && _pool is not null && array.Length > 0)
        {
            _pool.Return(array);
        }
    }

    private ObjectDisposedException Disposed() => new(nameof(PooledBuffer), "The pooled buffer was disposed and its array returned to the pool.");
}
