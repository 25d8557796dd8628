namespace PooledHttp.Tests.Support;

/// <summary>
/// A destination that keeps what is written to it and holds its first write until the test lets go, so a
/// test can act while a serialization is certainly mid-write rather than hope to land there.
/// </summary>
internal sealed class PausedStream : Stream
{
    private readonly MemoryStream _written = new();
    private readonly TaskCompletionSource _reached = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _released = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Completes when the first write has been taken and is being held.</summary>
    public Task FirstWriteHeld => _reached.Task;

    /// <summary>Everything written so far.</summary>
    public byte[] Written => _written.ToArray();

    public override bool CanRead => false;

    public override bool CanSeek => false;

    public override bool CanWrite => true;

    public override long Length => _written.Length;

    public override long Position { get => _written.Length; set => throw new NotSupportedException(); }

    /// <summary>Lets the held write, and every one after it, complete.</summary>
    public void Release() => _released.TrySetResult();

    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        _written.Write(buffer.Span);
        _reached.TrySetResult();
        await _released.Task.WaitAsync(cancellationToken);
    }

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        => WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Write(byte[] buffer, int offset, int count) => WriteAsync(buffer, offset, count, CancellationToken.None).GetAwaiter().GetResult();

    public override void Flush()
    {
    }

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();
}
