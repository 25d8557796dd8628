namespace PooledHttp.Content;

/// <summary>
/// Holds a request content's pooled memory and decides when it may go back. <c>SendAsync</c> can complete
/// before the content has finished serializing (HTTP/2 duplex, or <c>Expect: 100-continue</c> answered early
/// with a final status; dotnet/runtime issue #107082), and the caller then disposes the request while a write
/// may still be reading that memory. So dispose only marks the content, and the memory goes back when the
/// last serialization in progress ends, or at once when none is. It goes back exactly once.
/// </summary>
/// <param name="memory">What owns the pooled memory; disposing it gives the memory back.</param>
internal sealed class SerializationGuard(IDisposable memory)
{
    private int _serializing; // serializations in progress
    private int _disposed;    // 1 once Dispose was called
    private int _released;    // 1 once the memory was given back

    /// <summary>Whether the content was disposed (its memory may still be in use by a serialization).</summary>
    public bool IsDisposed => Volatile.Read(ref _disposed) != 0;

    /// <summary>Starts a serialization; pair it with <see cref="Exit"/> in a <c>finally</c>.</summary>
    /// <param name="owner">The content, named in the exception.</param>
    /// <exception cref="ObjectDisposedException">The content was disposed.</exception>
    public void Enter(object owner)
    {
        // Count first, then look: a dispose that lands in between sees the count and leaves the memory alone.
        Interlocked.Increment(ref _serializing);
        if (IsDisposed)
        {
            Exit();
            throw new ObjectDisposedException(owner.GetType().Name);
        }
    }

    /// <summary>Ends a serialization; the last one out after a dispose gives the memory back.</summary>
    public void Exit()
    {
        if (Interlocked.Decrement(ref _serializing) == 0 && IsDisposed)
        {
            Release();
        }
    }

    /// <summary>Marks the content disposed, and gives the memory back unless a serialization is in progress. Idempotent.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 0 && Volatile.Read(ref _serializing) == 0)
        {
            Release();
        }
    }

    private void Release()
    {
        if (Interlocked.Exchange(ref _released, 1) == 0)
        {
            memory.Dispose();
        }
    }
}
