using System.Buffers;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;

namespace PooledHttp.Buffers;

/// <summary>
/// A write-only stream (and <see cref="IBufferWriter{T}"/>) that collects bytes in one array rented
/// from an <see cref="ArrayPool{T}"/>, growing by renting a bigger one and returning the old one,
/// and refusing to grow past a maximum length.
/// </summary>
/// <remarks>
/// <para>The idea is the runtime's internal <c>LimitArrayPoolWriteStream</c>: buffer a body of
/// unknown length without leaving a trail of garbage arrays behind. Growth costs copies, never
/// allocations, once the pool is warm.</para>
/// <para><b>Ownership.</b> The stream owns at most one rented array at a time. <see cref="Dispose(bool)"/>
/// returns it exactly once; a second dispose does nothing. <see cref="DetachBuffer"/> hands the array
/// to a <see cref="PooledBuffer"/> instead, after which the stream owns nothing and is disposed.</para>
/// <para><b>Growth.</b> A write, <see cref="GetMemory"/> or <see cref="GetSpan"/> that needs more room than the array has
/// rents a larger array, copies the data into it, and returns the old array to the pool, where the next renter may get
/// it at once. So a <see cref="WrittenSpan"/>, <see cref="WrittenMemory"/>, <see cref="GetReadOnlySequence"/>,
/// <see cref="GetMemory"/> or <see cref="GetSpan"/> handed out before a growth points into an array that is no longer
/// the stream's: take them afresh after every write, and read them only until the next one. Writing the stream's own
/// bytes into it (<c>stream.Write(stream.WrittenSpan)</c>) is safe: the old array goes back only after the copy.</para>
/// <para><b>After dispose.</b> Every member but <see cref="Dispose(bool)"/>, <see cref="Flush"/>, <see cref="FlushAsync(CancellationToken)"/>
/// and the <c>Can*</c> properties throws <see cref="ObjectDisposedException"/>, the asynchronous ones through their task;
/// <see cref="Flush"/> and <see cref="FlushAsync(CancellationToken)"/> succeed, as <see cref="MemoryStream"/>'s do. Memory
/// obtained from <see cref="WrittenMemory"/> before dispose must not be used after it.</para>
/// </remarks>
[DebuggerDisplay("{DebuggerText,nq}")]
public sealed class PooledBufferStream : Stream, IBufferWriter<byte>
{
    /// <summary>The smallest array worth renting: below this the pool's bucket rounding would give it anyway.</summary>
    private const int MinimumRent = 256;

    /// <summary>What <see cref="GetMemory"/> asks for when the caller gives no hint: a typical socket read.</summary>
    private const int DefaultSizeHint = 4096;

    /// <summary>
    /// How far past the data a writer's size hint may reach: <c>Utf8JsonWriter</c> asks for three bytes per
    /// UTF-16 char of a string (the most one char can take in UTF-8) before it transcodes it, and every char
    /// takes at least one byte. A hint above three times the room left asks for data that cannot fit.
    /// </summary>
    private const int WorstCaseHintExpansion = 3;

    /// <summary>What a writer adds to a hint beyond the data itself: quotes, separators, indentation.</summary>
    private const int HintSlack = DefaultSizeHint;

    private readonly ArrayPool<byte> _pool;
    private byte[] _buffer;
    private int _length;
    private int _disposed; // 0 live, 1 disposed or detached: set once, atomically, so two racing disposes return the array once

    /// <summary>Creates the stream.</summary>
    /// <param name="maxLength">The most bytes it will ever hold; writing past it throws <see cref="BufferLimitExceededException"/> (not an HTTP failure: no request is involved).</param>
    /// <param name="initialCapacity">Bytes to rent up front, for example a Content-Length; 0 rents nothing until the first write.</param>
    /// <param name="pool">The pool to rent from; <see cref="ArrayPool{T}.Shared"/> when <see langword="null"/>.</param>
    public PooledBufferStream(int maxLength = int.MaxValue, int initialCapacity = 0, ArrayPool<byte>? pool = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxLength);
        ArgumentOutOfRangeException.ThrowIfNegative(initialCapacity);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(initialCapacity, maxLength);

        MaxLength = maxLength;
        _pool = pool ?? ArrayPool<byte>.Shared;
        _buffer = initialCapacity == 0 ? [] : _pool.Rent(initialCapacity);
    }

    /// <summary>Starts with <paramref name="rented"/>, an array already rented from <paramref name="pool"/>, which the stream now owns.</summary>
    internal PooledBufferStream(int maxLength, byte[] rented, ArrayPool<byte> pool)
    {
        MaxLength = maxLength;
        _pool = pool;
        _buffer = rented;
    }

    private string DebuggerText => Volatile.Read(ref _disposed) != 0
        ? "PooledBufferStream (disposed or detached)"
        : $"PooledBufferStream {_length:N0} of {_buffer.Length:N0} bytes, limit {MaxLength:N0}";

    /// <summary>How many times larger each new array is than the last: 2 unless a reader that knows its bodies says otherwise.</summary>
    internal int GrowthFactor { get; init; } = 2;

    /// <summary>The limit this stream enforces, in bytes.</summary>
    public int MaxLength { get; }

    /// <summary>The length of the array currently rented: how much can be written before the next growth.</summary>
    public int Capacity
    {
        get
        {
            ThrowIfDisposed();
            return _buffer.Length;
        }
    }

    /// <summary>The bytes written so far, valid until the next write that grows the array (see the remarks on growth) or dispose.</summary>
    public ReadOnlyMemory<byte> WrittenMemory
    {
        get
        {
            ThrowIfDisposed();
            return new ReadOnlyMemory<byte>(_buffer, 0, _length);
        }
    }

    /// <summary>The bytes written so far, as a span, valid until the next write that grows the array or dispose.</summary>
    public ReadOnlySpan<byte> WrittenSpan
    {
        get
        {
            ThrowIfDisposed();
            return new ReadOnlySpan<byte>(_buffer, 0, _length);
        }
    }

    /// <summary>The bytes written so far, as a single-segment sequence.</summary>
    public ReadOnlySequence<byte> GetReadOnlySequence() => new(WrittenMemory);

    /// <inheritdoc />
    public override bool CanRead => false;

    /// <inheritdoc />
    public override bool CanSeek => false;

    /// <inheritdoc />
    public override bool CanWrite => Volatile.Read(ref _disposed) == 0;

    /// <inheritdoc />
    public override long Length
    {
        get
        {
            ThrowIfDisposed();
            return _length;
        }
    }

    /// <summary>The bytes written so far; setting it is not supported: the stream only appends.</summary>
    public override long Position
    {
        get => Length;
        set
        {
            ThrowIfDisposed();
            throw OnlyAppends();
        }
    }

    /// <summary>
    /// Hands the rented array and the written length to a new <see cref="PooledBuffer"/>, which the
    /// caller then owns. The stream is disposed and owns nothing afterwards.
    /// </summary>
    public PooledBuffer DetachBuffer()
    {
        ObjectDisposedException.ThrowIf(Interlocked.Exchange(ref _disposed, 1) != 0, this);
        var lease = new PooledBuffer(_buffer.Length == 0 ? null : _pool, _buffer, _length);
        _buffer = [];
        _length = 0;
        return lease;
    }

    /// <inheritdoc />
    public override void Write(byte[] buffer, int offset, int count)
    {
        ValidateBufferArguments(buffer, offset, count);
        Write(buffer.AsSpan(offset, count));
    }

    /// <inheritdoc />
    public override void Write(ReadOnlySpan<byte> buffer)
    {
        ThrowIfOverLimit(buffer.Length);

        // The bytes may be this stream's own (its WrittenSpan): the array they live in goes back only after the copy.
        byte[]? replaced = EnsureCapacity(buffer.Length, MaxLength);
        buffer.CopyTo(_buffer.AsSpan(_length));
        _length += buffer.Length;
        ReturnReplaced(replaced);
    }

    /// <inheritdoc />
    public override void WriteByte(byte value) => Write([value]);

    /// <summary>Writes synchronously; argument errors throw at the call, every other failure (cancellation, disposal,
    /// the limit) comes through the returned task, as <see cref="MemoryStream"/>'s does.</summary>
    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
    {
        ValidateBufferArguments(buffer, offset, count);
        return WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    }

    /// <inheritdoc cref="WriteAsync(byte[], int, int, CancellationToken)"/>
    [SuppressMessage("ApiDesign", "RS0027", Justification = "Stream's own signature, overridden.")]
    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled(cancellationToken);
        }

        try
        {
            Write(buffer.Span);
            return ValueTask.CompletedTask;
        }
        catch (Exception e) when (e is ObjectDisposedException or BufferLimitExceededException)
        {
            return ValueTask.FromException(e);
        }
    }

    /// <inheritdoc />
    public void Advance(int count)
    {
        ThrowIfDisposed();
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        int handedOut = _buffer.Length - _length;
        if (count > handedOut)
        {
            throw new InvalidOperationException($"Cannot advance {count} bytes: only {handedOut} were handed out.");
        }

        // The limit applies to bytes written, not to the room a writer asked for (see GetMemory).
        ThrowIfOverLimit(count);
        _length += count;
    }

    /// <summary>
    /// Returns writable memory of at least <paramref name="sizeHint"/> bytes (at least one byte when
    /// the hint is 0), as the <see cref="IBufferWriter{T}"/> contract asks. A hint is room, not data:
    /// <c>Utf8JsonWriter</c> asks for three bytes per char of a string before it writes it, so near the limit
    /// the memory may reach past <see cref="MaxLength"/> by up to the hint, and <see cref="Advance"/> enforces
    /// the limit on the bytes actually written. What is rented stays bounded all the same: a hint larger than
    /// three times the room left (plus a few KiB for quotes and indentation) asks for data that cannot fit, and
    /// throws <see cref="BufferLimitExceededException"/> before anything is rented, so the stream never asks its pool
    /// for more than three times <see cref="MaxLength"/> and a few KiB.
    /// </summary>
    /// <exception cref="BufferLimitExceededException">The stream is full, or the hint asks for more than can fit.</exception>
    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        int room = ReserveRoom(sizeHint);
        return _buffer.AsMemory(_length, room);
    }

    /// <inheritdoc cref="GetMemory"/>
    public Span<byte> GetSpan(int sizeHint = 0)
    {
        int room = ReserveRoom(sizeHint);
        return _buffer.AsSpan(_length, room);
    }

    /// <summary>Does nothing, and succeeds after dispose too, as <see cref="MemoryStream.Flush"/> does: the bytes are in memory as
    /// soon as they are written, and a writer that flushes on its own disposal (<c>Utf8JsonWriter</c>, <c>StreamWriter</c> with
    /// <c>leaveOpen</c>) may do so after <see cref="DetachBuffer"/> or <see cref="Stream.Dispose()"/>.</summary>
    public override void Flush()
    {
    }

    /// <summary>Does nothing, after dispose too, as <see cref="Flush"/>; a cancelled token comes through the returned task.</summary>
    public override Task FlushAsync(CancellationToken cancellationToken)
        => cancellationToken.IsCancellationRequested ? Task.FromCanceled(cancellationToken) : Task.CompletedTask;

    /// <summary>Not supported: the stream is write-only.</summary>
    public override int Read(byte[] buffer, int offset, int count)
    {
        ThrowIfDisposed();
        throw WriteOnly();
    }

    /// <summary>Not supported: the stream is write-only.</summary>
    public override int Read(Span<byte> buffer)
    {
        ThrowIfDisposed();
        throw WriteOnly();
    }

    /// <summary>Not supported: the stream is write-only.</summary>
    public override int ReadByte()
    {
        ThrowIfDisposed();
        throw WriteOnly();
    }

    /// <summary>Not supported: the stream is write-only; the failure comes through the returned task.</summary>
    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
    {
        ValidateBufferArguments(buffer, offset, count);
        return ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    }

    /// <summary>Not supported: the stream is write-only; the failure comes through the returned task.</summary>
    [SuppressMessage("ApiDesign", "RS0027", Justification = "Stream's own signature, overridden.")]
    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        => ValueTask.FromException<int>(Volatile.Read(ref _disposed) != 0 ? new ObjectDisposedException(GetType().Name) : WriteOnly());

    /// <summary>Not supported: the stream only appends.</summary>
    public override long Seek(long offset, SeekOrigin origin)
    {
        ThrowIfDisposed();
        throw OnlyAppends();
    }

    /// <summary>Not supported: the stream only appends.</summary>
    public override void SetLength(long value)
    {
        ThrowIfDisposed();
        throw OnlyAppends();
    }

    private static NotSupportedException WriteOnly() => new("PooledBufferStream is write-only; read WrittenMemory instead.");

    private static NotSupportedException OnlyAppends() => new("PooledBufferStream only appends.");

    /// <summary>Returns the rented array to the pool. Idempotent.</summary>
    protected override void Dispose(bool disposing)
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            byte[] array = _buffer;
            _buffer = [];
            _length = 0;
            if (array.Length > 0)
            {
                _pool.Return(array);
            }
        }

        base.Dispose(disposing);
    }

    private int ReserveRoom(int sizeHint)
    {
        ThrowIfDisposed();
        ArgumentOutOfRangeException.ThrowIfNegative(sizeHint);
        int left = MaxLength - _length;
        if (left == 0)
        {
            throw new BufferLimitExceededException(MaxLength);
        }

        // Without a hint, room up to the limit; with one, the room asked for even past the limit, unless
        // even a writer's worst case could not fit what it is about to write in what is left: then renting
        // the room would only cost memory the limit was set to protect.
        int room = sizeHint == 0 ? Math.Min(DefaultSizeHint, left) : sizeHint;
        if (room > ((long)left * WorstCaseHintExpansion) + HintSlack)
        {
            throw new BufferLimitExceededException(MaxLength);
        }

        ReturnReplaced(EnsureCapacity(room, (long)_length + room));
        return _buffer.Length - _length;
    }

    private void ThrowIfOverLimit(int additional)
    {
        ThrowIfDisposed();
        if (additional > MaxLength - _length)
        {
            throw new BufferLimitExceededException(MaxLength);
        }
    }

    /// <summary>Makes room for <paramref name="additional"/> bytes past what is written, moving the data to a larger array when
    /// it must. The array it replaced is the caller's to give back, with <see cref="ReturnReplaced"/>, once nothing reads it.</summary>
    /// <param name="additional">Room needed after what is written.</param>
    /// <param name="ceiling">The most to ask the pool for: the limit, or past it by a writer's size hint.</param>
    /// <returns>The array the data moved out of, or <see langword="null"/> when it did not move.</returns>
    private byte[]? EnsureCapacity(int additional, long ceiling)
    {
        ThrowIfDisposed();
        if (additional <= _buffer.Length - _length)
        {
            return null;
        }

        long needed = (long)_length + additional;
        if (needed > Math.Max(ceiling, MaxLength))
        {
            throw new BufferLimitExceededException(MaxLength);
        }

        // Grow geometrically to keep the number of copies logarithmic, but never ask for more than the ceiling: a
        // 10,000,000-byte limit should not make us ask for 16 MiB for a 9,000,000-byte body.
        long doubled = Math.Max((long)_buffer.Length * GrowthFactor, MinimumRent);
        int newSize = (int)Math.Min(Math.Max(needed, doubled), Math.Min(Math.Max(ceiling, MaxLength), Array.MaxLength));

        byte[] bigger = _pool.Rent(newSize);
        _buffer.AsSpan(0, _length).CopyTo(bigger);
        byte[] old = _buffer;
        _buffer = bigger;
        return old;
    }

    private void ReturnReplaced(byte[]? replaced)
    {
        if (replaced is { Length: > 0 })
        {
            _pool.Return(replaced);
        }
    }

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
}
