using System.Globalization;
using System.Net;
using System.Net.Http.Headers;

namespace PooledHttp.Http;

/// <summary>
/// The one framing decision every entry point of the library shares: whether a response has a body, and how
/// long it says it is, read the way RFC 9112 §6.3 tells a client to read it and the way the runtime's
/// <c>SocketsHttpHandler</c> frames it. It is stricter than <see cref="HttpClient"/> in one place: a
/// Content-Length that is invalid, or that appears with different values, is "an unrecoverable error" (the
/// runtime silently picks the first value, or reads to the end of the connection). Identical repeated values
/// are accepted as one, which the RFC allows.
/// </summary>
/// <remarks>
/// <para>A response to HEAD, a 204 and a 304 have no body whatever Content-Length they carry (RFC 9110 §9.3.2,
/// §15.3.5, §15.4.5); Transfer-Encoding overrides Content-Length (RFC 9112 §6.3).</para>
/// <para>What it cannot see: with <see cref="SocketsHttpHandler.AutomaticDecompression"/> on, the handler
/// removes Content-Length from a compressed response before anyone sees the headers, so a conflicting
/// Content-Length there goes unnoticed, by the runtime's read and this one alike; the body is then whatever
/// the transport's own framing delivered.</para>
/// <para>Runs once per download, so it reads the raw header values without parsing or splitting them into new strings.</para>
/// </remarks>
internal static class BodyFraming
{
    private const string ContentLength = "Content-Length";
    private const string TransferEncoding = "Transfer-Encoding";

    /// <summary>Whether the response has no body by definition: the answer to a HEAD, a 204 or a 304.</summary>
    public static bool HasNoBody(HttpResponseMessage response)
        => response.StatusCode is HttpStatusCode.NoContent or HttpStatusCode.NotModified
           || response.RequestMessage?.Method == HttpMethod.Head;

    /// <summary>The declared length of a response's body, or <see langword="null"/> when it is chunked or has no Content-Length.
    /// Call <see cref="HasNoBody"/> first: a response without a body may carry any Content-Length.</summary>
    /// <exception cref="HttpRequestException">Content-Length is invalid or has conflicting values (<see cref="HttpRequestError.InvalidResponse"/>).</exception>
    public static long? DeclaredLength(HttpResponseMessage response)
    {
        // Transfer-Encoding wins over Content-Length, whatever Content-Length says: the runtime does not read it then.
        if (response.Headers.NonValidated.Contains(TransferEncoding))
        {
            return null;
        }

        HttpContent content = response.Content;
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

    private static HttpRequestException Invalid(string message)
        => BodyFailure.Invalid(message + " Its framing cannot be trusted, so the response is refused (RFC 9112, section 6.3).");
}
