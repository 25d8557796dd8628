namespace PooledHttp.Workshop.Checks;

/// <summary>
/// Where a learner's download hands over the body: once, as one span, before the array behind it goes
/// back to the pool. The check compares it byte for byte with what the server sent; a benchmark passes
/// a callback that does nothing.
/// </summary>
/// <param name="body">The whole body.</param>
public delegate void BodyReceived(ReadOnlySpan<byte> body);
