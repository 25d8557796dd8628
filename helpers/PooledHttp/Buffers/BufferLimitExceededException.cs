namespace PooledHttp.Buffers;

/// <summary>
/// Thrown when bytes written into a <see cref="PooledBufferStream"/> (and so a request body serialized by
/// <see cref="Content.PooledJsonContent"/>) would grow past the limit its owner set. It is a local limit, reached
/// before any request exists: not an <see cref="System.Net.Http.HttpRequestException"/>, so a handler that maps HTTP
/// failures to a retry or a 502 does not take it for one. A response body over its limit is a
/// <see cref="PayloadTooLargeException"/> instead, the exception <see cref="System.Net.Http.HttpClient"/> throws there.
/// </summary>
/// <remarks>Nothing past the limit was written: the stream keeps what it held before the refused write until it is disposed.</remarks>
public sealed class BufferLimitExceededException : InvalidOperationException
{
    /// <summary>Creates the exception for a limit of <paramref name="limit"/> bytes.</summary>
    /// <param name="limit">The limit, in bytes.</param>
    public BufferLimitExceededException(long limit)
        : base($"The buffer would grow past its limit of {limit:N0} bytes.")
    {
        Limit = limit;
    }

    /// <summary>The limit, in bytes, that a write would have exceeded.</summary>
    public long Limit { get; }
}
