using System.Globalization;
using System.Net.Http.Headers;

namespace PooledHttp.Http;

/// <summary>
/// How long a response body says it is, read the way RFC 9112 §6.3 tells a client to read it, which is
/// stricter than <see cref="HttpClient"/> in one place: a Content-Length that is invalid, or that
/// appears with different values, is "an unrecoverable error" (the runtime silently picks the first
/// value, or reads to the end of the connection). Identical repeated values are accepted as one, which
/// the RFC allows, and Transfer-Encoding overrides Content-Length, as the runtime does.
/// </summary>
/// <remarks>Runs once per download, so it reads the raw header values without parsing or splitting them into new strings.</remarks>
internal static class BodyFraming
{
    private const string ContentLength = "Content-Length";
    private const string TransferEncoding = "Transfer-Encoding";

    /// <summary>The declared length of a response's body, or <see langword="null"/> when it is chunked or has no Content-Length.</summary>
    /// <exception cref="HttpIOException">Content-Length is invalid or has conflicting values (<see cref="HttpRequestError.InvalidResponse"/>).</exception>
    public static long? DeclaredLength(HttpResponseMessage response)
    {
        long? declared = DeclaredLength(response.Content);
        // Transfer-Encoding wins over Content-Length; look at it only when it could matter.
        return declared is not null && response.Headers.NonValidated.Contains(TransferEncoding) ? null : declared;
    }

    /// <inheritdoc cref="DeclaredLength(HttpResponseMessage)"/>
    public static long? DeclaredLength(HttpContent content)
    {
        if (!content.Headers.NonValidated.TryGetValues(ContentLength, out HeaderStringValues values))
        {
            return null;
        }

        long? declared = null;
        foreach (string field in values)
        {
            // One field may also carry a list ("5, 5"): every member counts.
            ReadOnlySpan<char> rest = field;
            while (true)
            {
                int comma = rest.IndexOf(',');
                ReadOnlySpan<char> member = (comma < 0 ? rest : rest[..comma]).Trim();
                if (member.IsEmpty || member.ContainsAnyExceptInRange('0', '9') || !long.TryParse(member, NumberStyles.None, CultureInfo.InvariantCulture, out long length))
                {
                    throw Invalid($"The response's Content-Length '{field}' is not a valid length.");
                }

                if (declared is { } previous && previous != length)
                {
                    throw Invalid($"The response declares two different Content-Lengths, {previous:N0} and {length:N0}.");
                }

                declared = length;
                if (comma < 0)
                {
                    break;
                }

                rest = rest[(comma + 1)..];
            }
        }

        return declared;
    }

    private static HttpIOException Invalid(string message)
        => new(HttpRequestError.InvalidResponse, message + " Its framing cannot be trusted, so the response is refused (RFC 9112, section 6.3).");
}
