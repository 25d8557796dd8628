using System.Net.Http;

namespace PooledHttp.Buffers;

/// <summary>
/// Thrown when a response body would grow past the limit its reader set. It is the
/// <see cref="HttpRequestException"/> with <see cref="HttpRequestError.ConfigurationLimitExceeded"/> that
/// <see cref="HttpClient"/> throws for a body over <see cref="HttpClient.MaxResponseContentBufferSize"/>, so code
/// that catches the runtime's exception catches this one, and it also carries the limit and the declared length.
/// </summary>
/// <remarks>
/// Nothing past the limit was kept: a pooled read has returned every array it rented by the time this is caught. A local
/// buffer over its limit (a <see cref="PooledBufferStream"/>, a request body being serialized) throws
/// <see cref="BufferLimitExceededException"/> instead, which is not an HTTP failure.
/// </remarks>
public sealed class PayloadTooLargeException : HttpRequestException
{
    /// <summary>Creates the exception for a limit of <paramref name="limit"/> bytes.</summary>
    /// <param name="limit">The limit, in bytes.</param>
    /// <param name="declaredLength">The length the sender declared, when that is what broke the limit.</param>
    public PayloadTooLargeException(long limit, long? declaredLength = null)
        : base(HttpRequestError.ConfigurationLimitExceeded, Describe(limit, declaredLength))
    {
        Limit = limit;
        DeclaredLength = declaredLength;
    }

    /// <summary>The limit, in bytes, that was exceeded.</summary>
    public long Limit { get; }

    /// <summary>The length the sender declared (Content-Length), when that is what broke the limit.</summary>
    public long? DeclaredLength { get; }

    private static string Describe(long limit, long? declaredLength) => declaredLength is { } declared
        ? $"The body declares {declared:N0} bytes, more than the limit of {limit:N0} bytes."
        : $"The body is larger than the limit of {limit:N0} bytes.";
}
