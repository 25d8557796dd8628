using System.Net.Http;

namespace PooledHttp.Buffers;

/// <summary>
/// Thrown when a body or buffer would grow past the limit its owner set. It is the
/// <see cref="HttpRequestException"/> with <see cref="HttpRequestError.ConfigurationLimitExceeded"/> that
/// <see cref="HttpClient"/> throws for a body over <see cref="HttpClient.MaxResponseContentBufferSize"/>, so code
/// that catches the runtime's exception catches this one, and it also carries the limit and the declared length.
/// </summary>
/// <remarks>
/// Nothing past the limit was kept. A pooled read has returned every array it rented by the time this is caught;
/// a <see cref="PooledBufferStream"/> that refuses a write keeps what it already holds until it is disposed.
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
