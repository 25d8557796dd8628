namespace PooledHttp.Workshop.Exercising;

/// <summary>
/// A read-only stream over bytes that returns at most a few bytes per read, as a slow network does: a
/// single <c>ReadAsync</c> that expects the whole body gets a fraction of it. Exercise 02's check feeds
/// learners' loops with it, and the library's tests feed the library's.
/// </summary>
internal sealed class TrickleStream(byte[] data, int maxPerRead) : Stream
{
    private int _position;

    /// <summary>How many reads were asked for.</summary>
    public int Reads { get; private set; }

    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    /// <summary>How many bytes have been read so far; not settable.</summary>
    public override long Position
    {
        get => _position;
        set => throw new NotSupportedException();
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer)
    {
        Reads++;
        int n = Math.Min(Math.Min(buffer.Length, maxPerRead), data.Length - _position);
        data.AsSpan(_position, n).CopyTo(buffer);
        _position += n;
        return n;
    }

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        cancellationToken.ThrowIfCancellationRequested();
        return ValueTask.FromResult(Read(buffer.Span));
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        => ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
