namespace PooledHttp.Testing;

/// <summary>
/// A read-only stream over bytes that returns at most a few bytes per read, as a slow network does: a
/// single <c>ReadAsync</c> that expects the whole body gets a fraction of it. Exercise 02's check feeds
/// learners' loops with it, and the library's tests feed the library's.
/// </summary>
public sealed class TrickleStream(byte[] data, int maxPerRead) : Stream
{
    private int _position;

    /// <summary>How many reads were asked for.</summary>
    public int Reads { get; private set; }

    /// <inheritdoc />

    public override bool CanRead => true;

    /// <inheritdoc />

    public override bool CanSeek => false;

    /// <inheritdoc />

    public override bool CanWrite => false;

    /// <inheritdoc />

    public override long Length => throw new NotSupportedException();

    /// <summary>How many bytes have been read so far; not settable.</summary>
    /// <inheritdoc />
    public override long Position
    {
        get => _position;
        set => throw new NotSupportedException();
    }

    /// <inheritdoc />

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    /// <inheritdoc />

    public override int Read(Span<byte> buffer)
    {
        Reads++;
        int n = Math.Min(Math.Min(buffer.Length, maxPerRead), data.Length - _position);
        data.AsSpan(_position, n).CopyTo(buffer);
        _position += n;
        return n;
    }

    /// <inheritdoc />

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        cancellationToken.ThrowIfCancellationRequested();
        return ValueTask.FromResult(Read(buffer.Span));
    }

    /// <inheritdoc />

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        => ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    /// <inheritdoc />

    public override void Flush()
    {
    }

    /// <inheritdoc />

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    /// <inheritdoc />

    public override void SetLength(long value) => throw new NotSupportedException();

    /// <inheritdoc />

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
