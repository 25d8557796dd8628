namespace PooledHttp.Buffers;

/// <summary>
/// Thrown when a body or buffer would grow past the limit its owner set. Nothing past the limit
/// was kept, and every pooled array involved has been returned by the time this is caught.
/// </summary>
public sealed class PayloadTooLargeException : IOException
{
    /// <summary>Creates the exception for a limit of <paramref name="limit"/> bytes.</summary>
    public PayloadTooLargeException(long limit, long? declaredLength = null)
        : base(declaredLength is { } declared
            ? $"The body declares {declared:N0} bytes, more than the limit of {limit:N0} bytes."
            : $"The body is larger than the limit of {limit:N0} bytes.")
    {
        Limit = limit;
        DeclaredLength = declaredLength;
    }

    /// <summary>The limit, in bytes, that was exceeded.</summary>
    public long Limit { get; }

    /// <summary>The length the sender declared (Content-Length), when that is what broke the limit.</summary>
    public long? DeclaredLength { get; }
}
