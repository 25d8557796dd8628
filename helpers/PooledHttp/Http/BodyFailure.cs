namespace PooledHttp.Http;

/// <summary>
/// The exceptions a body read reports, shaped as <see cref="HttpClient"/> and <see cref="HttpContent"/> shape
/// theirs, so that a caller who catches what <c>GetByteArrayAsync</c> or <c>ReadAsByteArrayAsync</c> throws for a
/// failure catches the library's for the same failure: an <see cref="HttpRequestException"/> whose
/// <see cref="HttpRequestException.HttpRequestError"/> says what went wrong.
/// </summary>
internal static class BodyFailure
{
    /// <summary>
    /// What the runtime wraps when a body copy fails (<c>HttpContent.StreamCopyExceptionNeedsWrapping</c> in
    /// dotnet/runtime's HttpContent.cs): the stream's own I/O failures, and a stream disposed under the read.
    /// </summary>
    public static bool IsStreamFailure(Exception e) => e is IOException or ObjectDisposedException;

    /// <summary>
    /// A failed read of the body stream, reported as <c>HttpContent.WrapStreamCopyException</c> reports it: the
    /// inner <see cref="HttpIOException"/>'s error, or <see cref="HttpRequestError.Unknown"/>; the stream's exception inside.
    /// </summary>
    public static HttpRequestException StreamFailed(Exception e)
        => new(e is HttpIOException io ? io.HttpRequestError : HttpRequestError.Unknown, $"The body could not be read to its end: {e.Message}", e);

    /// <summary>The body ended before its declared length: what the runtime's content stream reports as a premature end.</summary>
    public static HttpRequestException Ended(string message) => new(HttpRequestError.ResponseEnded, message);

    /// <summary>The response's framing cannot be trusted (a bad or conflicting Content-Length, a body longer than declared).</summary>
    public static HttpRequestException Invalid(string message) => new(HttpRequestError.InvalidResponse, message);
}
