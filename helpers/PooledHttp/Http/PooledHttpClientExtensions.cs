using System.Buffers;
using System.Globalization;
using System.Net;
using System.Runtime.CompilerServices;
using PooledHttp.Buffers;

namespace PooledHttp.Http;

/// <summary>
/// Downloads a whole response body into a pooled buffer: a request in, a <see cref="PooledBuffer"/> out; or reads the body
/// of a response you already have.
/// </summary>
/// <remarks>
/// <para><see cref="GetPooledAsync(HttpClient, Uri?, int?, ArrayPool{byte}?, CancellationToken)"/> and
/// <see cref="SendPooledAsync(HttpClient, HttpRequestMessage, int?, ArrayPool{byte}?, CancellationToken)"/> send with
/// <see cref="HttpCompletionOption.ResponseHeadersRead"/>, so that <see cref="HttpClient"/> builds no buffer of its own: the body
/// streams straight into one array rented from the pool. They dispose the response they receive before they return, on
/// every path, so the connection goes back to the pool as soon as the body is in. The request is the caller's, as with
/// <see cref="HttpClient.SendAsync(HttpRequestMessage)"/>: <c>SendPooledAsync</c> does not dispose it, and
/// <c>GetPooledAsync</c> disposes the one it builds. <see cref="ReadPooledAsync(HttpResponseMessage, int, ArrayPool{byte}?, CancellationToken)"/>
/// disposes nothing: the response stays the caller's. The caller owns the returned buffer and must dispose it.</para>
/// <para>Await the returned <see cref="ValueTask{TResult}"/> once, directly; call <see cref="ValueTask{TResult}.AsTask"/> to
/// combine it with other tasks. A caller that blocks on it instead (<c>.Result</c>) waits for the body, as with
/// <c>GetByteArrayAsync(url).Result</c>, and reaches no other read: see <see cref="PooledBodyReader"/>'s remarks.</para>
/// <para>A string address takes the same options through <see cref="PooledHttpStringExtensions"/>.</para>
/// </remarks>
public static class PooledHttpClientExtensions
{
    /// <summary>GETs <paramref name="requestUri"/> and returns its body in a pooled buffer from <see cref="BodyPool.Shared"/>.</summary>
    /// <inheritdoc cref="GetPooledAsync(HttpClient, Uri?, int?, ArrayPool{byte}?, CancellationToken)"/>
    public static ValueTask<PooledBuffer> GetPooledAsync(this HttpClient client, Uri? requestUri)
        => client.GetPooledAsync(requestUri, null, null, CancellationToken.None);

    /// <summary>GETs <paramref name="requestUri"/> and returns its body in a pooled buffer from <see cref="BodyPool.Shared"/>.</summary>
    /// <inheritdoc cref="GetPooledAsync(HttpClient, Uri?, int?, ArrayPool{byte}?, CancellationToken)"/>
    public static ValueTask<PooledBuffer> GetPooledAsync(this HttpClient client, Uri? requestUri, CancellationToken cancellationToken)
        => client.GetPooledAsync(requestUri, null, null, cancellationToken);

    /// <summary>
    /// GETs <paramref name="requestUri"/> and returns its body in a pooled buffer. The request is built as
    /// <see cref="HttpClient.GetByteArrayAsync(Uri?)"/> builds it: with the client's <see cref="HttpClient.DefaultRequestVersion"/>
    /// and <see cref="HttpClient.DefaultVersionPolicy"/>, and a <see langword="null"/> or relative address resolved
    /// against <see cref="HttpClient.BaseAddress"/>. Everything else is <see cref="SendPooledAsync(HttpClient, HttpRequestMessage, int?, ArrayPool{byte}?, CancellationToken)"/>'s.
    /// </summary>
    /// <param name="client">The client.</param>
    /// <param name="requestUri">The address; <see langword="null"/> means the client's <see cref="HttpClient.BaseAddress"/>.</param>
    /// <param name="maxBytes">The largest body accepted; it can lower the client's <see cref="HttpClient.MaxResponseContentBufferSize"/>, never
    /// raise it. By default the smaller of that and <see cref="PooledBodyReader.DefaultMaxBytes"/>.</param>
    /// <param name="pool">The pool to rent from; <see cref="BodyPool.Shared"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Cancels the request and the read.</param>
    /// <inheritdoc cref="SendPooledAsync(HttpClient, HttpRequestMessage, int?, ArrayPool{byte}?, CancellationToken)" path="/exception"/>
    /// <inheritdoc cref="SendPooledAsync(HttpClient, HttpRequestMessage, int?, ArrayPool{byte}?, CancellationToken)" path="/returns"/>
    public static ValueTask<PooledBuffer> GetPooledAsync(this HttpClient client, Uri? requestUri, int? maxBytes = null, ArrayPool<byte>? pool = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(client);
        var request = new HttpRequestMessage(HttpMethod.Get, requestUri)
        {
            Version = client.DefaultRequestVersion,
            VersionPolicy = client.DefaultVersionPolicy,
        };
        return Send(client, request, ownsRequest: true, maxBytes, pool, cancellationToken);
    }

    /// <summary>Sends <paramref name="request"/> and returns the body in a pooled buffer from <see cref="BodyPool.Shared"/>.</summary>
    /// <inheritdoc cref="SendPooledAsync(HttpClient, HttpRequestMessage, int?, ArrayPool{byte}?, CancellationToken)"/>
    public static ValueTask<PooledBuffer> SendPooledAsync(this HttpClient client, HttpRequestMessage request)
        => client.SendPooledAsync(request, null, null, CancellationToken.None);

    /// <summary>Sends <paramref name="request"/> and returns the body in a pooled buffer from <see cref="BodyPool.Shared"/>.</summary>
    /// <inheritdoc cref="SendPooledAsync(HttpClient, HttpRequestMessage, int?, ArrayPool{byte}?, CancellationToken)"/>
    public static ValueTask<PooledBuffer> SendPooledAsync(this HttpClient client, HttpRequestMessage request, CancellationToken cancellationToken)
        => client.SendPooledAsync(request, null, null, cancellationToken);

    /// <summary>
    /// Sends <paramref name="request"/>, checks for a success status, and returns the body in a pooled
    /// buffer. The response is disposed before this returns, on every path. The request is the caller's, as with
    /// <see cref="HttpClient.SendAsync(HttpRequestMessage)"/>: it is not disposed, so its content can go out again in
    /// another request (a retry); dispose it when done, which gives a pooled content's buffer back. The exchange, headers and body, ends as <see cref="HttpClient.GetByteArrayAsync(Uri?, CancellationToken)"/>
    /// ends: at the client's <see cref="HttpClient.Timeout"/>, at <paramref name="cancellationToken"/>, or at the
    /// client's <see cref="HttpClient.CancelPendingRequests"/> or <see cref="HttpClient.Dispose(bool)"/>, and it fails
    /// with the exceptions that method throws for the same failure. The body is framed as <see cref="ReadPooledAsync(HttpResponseMessage, int, ArrayPool{byte}?, CancellationToken)"/> frames it.
    /// </summary>
    /// <param name="client">The client.</param>
    /// <param name="request">The request; sent as it is (its version included), and left to the caller to dispose.</param>
    /// <param name="maxBytes">The largest body accepted; it can lower the client's <see cref="HttpClient.MaxResponseContentBufferSize"/>, never
    /// raise it. By default the smaller of that and <see cref="PooledBodyReader.DefaultMaxBytes"/>.</param>
    /// <param name="pool">The pool to rent from; <see cref="BodyPool.Shared"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Cancels the request and the read.</param>
    /// <returns>A buffer holding exactly the body; the caller owns it and must dispose it.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="client"/> or <paramref name="request"/> is <see langword="null"/>.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxBytes"/> is negative.</exception>
    /// <exception cref="HttpRequestException">The status code is not a success (<see cref="HttpRequestException.StatusCode"/> says which);
    /// the body is over the limit (a <see cref="PayloadTooLargeException"/>, <see cref="HttpRequestError.ConfigurationLimitExceeded"/>);
    /// the body ended early (<see cref="HttpRequestError.ResponseEnded"/>); its framing cannot be trusted: a Content-Length that is
    /// invalid or has conflicting values (RFC 9112 §6.3) or a body longer than it (<see cref="HttpRequestError.InvalidResponse"/>; over
    /// HTTP/2 only, where the handler does not check DATA frames against the Content-Length: over HTTP/1.1 it reads the declared length and no more);
    /// or the connection failed (the transport's exception inside). Its <see cref="HttpRequestException.HttpRequestError"/> is
    /// what <see cref="HttpClient.GetByteArrayAsync(Uri?)"/> reports for the same response.</exception>
    /// <exception cref="TaskCanceledException"><paramref name="cancellationToken"/> was cancelled (the exception carries it as its
    /// <see cref="OperationCanceledException.CancellationToken"/>); the client's timeout elapsed (its inner exception is a
    /// <see cref="TimeoutException"/> and its message HttpClient's, in the current culture); or the client cancelled its pending requests.</exception>
    /// <exception cref="ObjectDisposedException">The client was disposed before the call (thrown at the call, as HttpClient throws it).</exception>
    /// <exception cref="InvalidOperationException">The request has no absolute address and the client has no base address, or the request was sent
    /// before (send its content again in a new request instead). Unlike HttpClient, which throws it at the call, this comes through the returned task.</exception>
    public static ValueTask<PooledBuffer> SendPooledAsync(this HttpClient client, HttpRequestMessage request, int? maxBytes = null, ArrayPool<byte>? pool = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(client);
        ArgumentNullException.ThrowIfNull(request);
        return Send(client, request, ownsRequest: false, maxBytes, pool, cancellationToken);
    }

    /// <summary>The checks at the call, then the exchange. A request built here (<paramref name="ownsRequest"/>) is disposed
    /// here, on every path; a caller's request is left to the caller.</summary>
    private static ValueTask<PooledBuffer> Send(HttpClient client, HttpRequestMessage request, bool ownsRequest, int? maxBytes, ArrayPool<byte>? pool, CancellationToken cancellationToken)
    {
        CancellationToken pending;
        try
        {
            if (maxBytes is { } given)
            {
                ArgumentOutOfRangeException.ThrowIfNegative(given, nameof(maxBytes));
            }

            // At the call, as HttpClient checks a disposed client before it starts.
            pending = PendingRequests.Of(client);
        }
        catch when (ownsRequest)
        {
            request.Dispose();
            throw;
        }

        // The client's limit is a safety limit: a call's own can lower it, never raise it (GetByteArrayAsync refuses past it).
        long clientLimit = Math.Min(client.MaxResponseContentBufferSize, PooledBodyReader.DefaultMaxBytes);
        int limit = (int)Math.Min(maxBytes ?? clientLimit, client.MaxResponseContentBufferSize);
        return PooledBodyReader.Detached(SendPooledCoreAsync(client, request, ownsRequest, limit, pool ?? BodyPool.Shared, pending, cancellationToken));
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<PooledBuffer> SendPooledCoreAsync(HttpClient client, HttpRequestMessage request, bool ownsRequest, int limit, ArrayPool<byte> pool, CancellationToken pending, CancellationToken cancellationToken)
    {
        // HttpClient's timeout and pending-requests cancellation end with the headers when it is asked for
        // ResponseHeadersRead; the body must live under them too, or a stalled body hangs the caller for ever.
        TimeSpan timeout = client.Timeout;
        using (TimeoutScope timed = TimeoutScope.Start(timeout, reusable: request.Content is null, cancellationToken, pending))
        {
            try
            {
                using (ownsRequest ? request : null)
                using (HttpResponseMessage response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, timed.Token).ConfigureAwait(false))
                {
                    response.EnsureSuccessStatusCode();

                    // The same steps as ReadPooledAsync, inline: one async frame less per download.
                    if (BodyFraming.HasNoBody(response))
                    {
                        return PooledBuffer.Empty;
                    }

                    long? declared = BodyFraming.DeclaredLength(response);
                    ThrowIfOverLimit(declared, limit);
                    Stream body = await response.Content.ReadAsStreamAsync(timed.Token).ConfigureAwait(false);
                    return await PooledBodyReader.ReadCoreAsync(body, declared, limit, pool, timed.Token).ConfigureAwait(false);
                }
            }
            catch (Exception e) when (Cancellation(e, timed, timeout, cancellationToken) is { } cancelled)
            {
                throw cancelled;
            }
        }
    }

    /// <summary>
    /// What <see cref="HttpClient"/> throws when an exchange it was running is cancelled, or <see langword="null"/> when
    /// <paramref name="e"/> is not about a cancellation. The caller's cancellation carries the caller's token; the timeout
    /// is a <see cref="TaskCanceledException"/> around a <see cref="TimeoutException"/>; the client's own cancellation is
    /// a <see cref="TaskCanceledException"/>. A failure of the read that follows any of them is that cancellation: the
    /// socket was torn down under it.
    /// </summary>
    private static TaskCanceledException? Cancellation(Exception e, TimeoutScope timed, TimeSpan timeout, CancellationToken caller)
    {
        bool cancelled = e is OperationCanceledException
            || (timed.Token.IsCancellationRequested && e is HttpRequestException { StatusCode: null } and not PayloadTooLargeException);
        if (!cancelled)
        {
            return null;
        }

        if (caller.IsCancellationRequested)
        {
            return e is OperationCanceledException oce && oce.CancellationToken == caller ? null : new TaskCanceledException(e.Message, e, caller);
        }

        if (timed.TimedOut(caller))
        {
            if (e is TaskCanceledException { InnerException: TimeoutException })
            {
                return null; // HttpClient's own timeout fired first, during the headers
            }

            string message = string.Format(CultureInfo.CurrentCulture, "The request was canceled due to the configured HttpClient.Timeout of {0} seconds elapsing.", timeout.TotalSeconds);
            return new TaskCanceledException(message, new TimeoutException(e.Message, e), timed.Token);
        }

        return e is TaskCanceledException ? null : new TaskCanceledException(e.Message, e, timed.Token);
    }

    /// <summary>Reads the body of a response you already have into a pooled buffer from <see cref="BodyPool.Shared"/>, up to <see cref="PooledBodyReader.DefaultMaxBytes"/>.</summary>
    /// <inheritdoc cref="ReadPooledAsync(HttpResponseMessage, int, ArrayPool{byte}?, CancellationToken)"/>
    public static ValueTask<PooledBuffer> ReadPooledAsync(this HttpResponseMessage response)
        => response.ReadPooledAsync(PooledBodyReader.DefaultMaxBytes, null, CancellationToken.None);

    /// <summary>Reads the body of a response you already have into a pooled buffer from <see cref="BodyPool.Shared"/>, up to <see cref="PooledBodyReader.DefaultMaxBytes"/>.</summary>
    /// <inheritdoc cref="ReadPooledAsync(HttpResponseMessage, int, ArrayPool{byte}?, CancellationToken)"/>
    public static ValueTask<PooledBuffer> ReadPooledAsync(this HttpResponseMessage response, CancellationToken cancellationToken)
        => response.ReadPooledAsync(PooledBodyReader.DefaultMaxBytes, null, cancellationToken);

    /// <summary>
    /// Reads the body of a response you already have into a pooled buffer, framed as the runtime frames it:
    /// the answer to a HEAD, a 204 or a 304 is empty whatever Content-Length it carries; Transfer-Encoding
    /// overrides Content-Length; otherwise a Content-Length must be valid, given once (or repeated with the same
    /// value), and match the body exactly. The body is read as <see cref="HttpContent.ReadAsByteArrayAsync()"/> reads it
    /// (through <see cref="HttpContent.CopyToAsync(Stream, CancellationToken)"/>). For the handler's own response contents that
    /// means the whole body or a failure, never part of it: a body whose stream was already handed out
    /// (<see cref="HttpContent.ReadAsStreamAsync()"/>) throws <see cref="InvalidOperationException"/>, as there, and a buffered
    /// body is read whole from its buffer, however much of a stream over it was read. A content of your own (a
    /// <see cref="StreamContent"/> over a stream you already read from, with no Content-Length) is read from where its stream
    /// stands, by this method as by the runtime's. Unlike <see cref="HttpContent.ReadAsByteArrayAsync()"/>, which buffers the
    /// body and can be called again, this read consumes it: a second read of any kind afterwards throws
    /// <see cref="InvalidOperationException"/>. Neither the response nor its content is disposed, and the status is not checked: that
    /// stays with the caller, as with <see cref="HttpContent.ReadAsByteArrayAsync()"/>.
    /// Only <paramref name="cancellationToken"/> bounds the read; the client's timeout ended with the headers
    /// if the response was read with <see cref="HttpCompletionOption.ResponseHeadersRead"/>.
    /// </summary>
    /// <param name="response">The response whose body to read.</param>
    /// <param name="maxBytes">The largest body accepted.</param>
    /// <param name="pool">The pool to rent from; <see cref="BodyPool.Shared"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Cancels the read; what was rented goes back first.</param>
    /// <returns>A buffer holding exactly the body; the caller must dispose it.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="response"/> is <see langword="null"/>.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxBytes"/> is negative.</exception>
    /// <exception cref="HttpRequestException">What <see cref="HttpContent.ReadAsByteArrayAsync()"/> and <see cref="HttpContent.LoadIntoBufferAsync(long)"/>
    /// throw for the same body: over the limit (a <see cref="PayloadTooLargeException"/>, <see cref="HttpRequestError.ConfigurationLimitExceeded"/>),
    /// ended early (<see cref="HttpRequestError.ResponseEnded"/>), framing that cannot be trusted (<see cref="HttpRequestError.InvalidResponse"/>:
    /// an invalid or conflicting Content-Length, RFC 9112 §6.3, or a body longer than it), or a failed read, the response disposed during
    /// it included (the stream's exception inside).</exception>
    /// <exception cref="ObjectDisposedException">The response was disposed before the call, whatever its status (a 204 included).</exception>
    /// <exception cref="InvalidOperationException">The body's stream was already handed out and the body is not buffered, as
    /// <see cref="HttpContent.ReadAsByteArrayAsync()"/> reports it.</exception>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
    public static ValueTask<PooledBuffer> ReadPooledAsync(this HttpResponseMessage response, int maxBytes = PooledBodyReader.DefaultMaxBytes, ArrayPool<byte>? pool = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(response);
        ArgumentOutOfRangeException.ThrowIfNegative(maxBytes);
        return PooledBodyReader.Detached(ReadPooledCoreAsync(response, maxBytes, pool ?? BodyPool.Shared, cancellationToken));
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<PooledBuffer> ReadPooledCoreAsync(HttpResponseMessage response, int maxBytes, ArrayPool<byte> pool, CancellationToken cancellationToken)
    {
        // Every path goes through the content's own copy, as ReadAsByteArrayAsync does: a disposed response throws
        // ObjectDisposedException, a stream already handed out InvalidOperationException, whatever the status.
        if (BodyFraming.HasNoBody(response))
        {
            await response.Content.CopyToAsync(Stream.Null, cancellationToken).ConfigureAwait(false);
            return PooledBuffer.Empty;
        }

        long? declared = BodyFraming.DeclaredLength(response);
        ThrowIfOverLimit(declared, maxBytes);
        return await PooledBodyReader.ReadContentAsync(response.Content, declared, maxBytes, pool, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>HttpClient's rule for a string address: <see langword="null"/> or empty means the base address.</summary>
    internal static Uri? CreateUri(string? uri) => string.IsNullOrEmpty(uri) ? null : new Uri(uri, UriKind.RelativeOrAbsolute);

    /// <summary>Fails before the body is opened: nothing is rented for a body that will be refused anyway.</summary>
    private static void ThrowIfOverLimit(long? declared, int maxBytes)
    {
        if (declared > maxBytes)
        {
            throw new PayloadTooLargeException(maxBytes, declared);
        }
    }
}
