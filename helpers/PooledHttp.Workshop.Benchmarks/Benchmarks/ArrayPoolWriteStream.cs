using System.Buffers;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// A write-only stream over arrays rented from <see cref="ArrayPool{T}.Shared"/>, doubling as it grows:
/// the shape of the runtime's internal <c>LimitArrayPoolWriteStream</c> that S0 copied into its
/// benchmark. Written here from that description, for chapter 04's benchmark only; the helpers'
/// production version is <see cref="Buffers.PooledBufferStream"/>, which also enforces a limit on
/// every write and can hand its buffer over.
/// </summary>
public sealed class ArrayPoolWriteStream : Stream
{
    private byte[] _buffer;
    private int _length;

    /// <summary>Rents a first array of <paramref name="initialCapacity"/> bytes.</summary>
    public ArrayPoolWriteStream(int initialCapacity) => _buffer = ArrayPool<byte>.Shared.Rent(initialCapacity);

    /// <inheritdoc />
    public override bool CanRead => false;

    /// <inheritdoc />
    public override bool CanSeek => false;

    /// <inheritdoc />
    public override bool CanWrite => true;

    /// <inheritdoc />
    public override long Length => _length;

    /// <inheritdoc />
    public override long Position
    {
        get => _length;
        set => throw new NotSupportedException();
    }

    /// <summary>The bytes written so far. Valid until the stream is disposed.</summary>
    public ArraySegment<byte> GetBuffer() => new(_buffer, 0, _length);

    /// <inheritdoc />
    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    /// <inheritdoc />
    public override void Write(ReadOnlySpan<byte> buffer)
    {
        ObjectDisposedException.ThrowIf(_buffer.Length == 0, this);
        if (_buffer.Length - _length < buffer.Length)
        {
            Grow(_length + buffer.Length);
        }

        buffer.CopyTo(_buffer.AsSpan(_length));
        _length += buffer.Length;
    }

    /// <inheritdoc />
    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        Write(buffer.Span);
        return ValueTask.CompletedTask;
    }

    /// <inheritdoc />
    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
    {
        Write(buffer.AsSpan(offset, count));
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public override void Flush()
    {
    }

    /// <inheritdoc />
    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    /// <inheritdoc />
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    /// <inheritdoc />
    public override void SetLength(long value) => throw new NotSupportedException();

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing && _buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = [];
        }

        base.Dispose(disposing);
    }

    private void Grow(int needed)
    {
        byte[] larger = ArrayPool<byte>.Shared.Rent(Math.Max(needed, (int)Math.Min(Array.MaxLength, 2L * _buffer.Length)));
        _buffer.AsSpan(0, _length).CopyTo(larger);
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = larger;
    }
}
