using System.Buffers;
using PooledHttp.Buffers;

namespace PooledHttp.Http;

/// <summary>
/// <see cref="PooledHttpClientExtensions.GetPooledAsync(HttpClient, Uri?, int?, ArrayPool{byte}?, CancellationToken)"/> for a
/// string address, as <see cref="HttpClient"/> takes one: the same options, by position or by name
/// (<c>client.GetPooledAsync("https://example.com/x", maxBytes: 1024)</c>), and a <see langword="null"/> or empty
/// address means the client's <see cref="HttpClient.BaseAddress"/>.
/// </summary>
/// <remarks>A class of its own because each class offers one overload with optional parameters (the public API
/// analyzer's rule RS0026): here the string address's, there the <see cref="Uri"/>'s.</remarks>
public static class PooledHttpStringExtensions
{
    /// <summary>GETs <paramref name="requestUri"/> and returns its body in a pooled buffer from <see cref="BodyPool.Shared"/>.</summary>
    /// <inheritdoc cref="GetPooledAsync(HttpClient, string?, int?, ArrayPool{byte}?, CancellationToken)"/>
    public static ValueTask<PooledBuffer> GetPooledAsync(this HttpClient client, string? requestUri, CancellationToken cancellationToken)
        => client.GetPooledAsync(PooledHttpClientExtensions.CreateUri(requestUri), null, null, cancellationToken);

    /// <summary>GETs <paramref name="requestUri"/> and returns its body in a pooled buffer.</summary>
    /// <param name="client">The client.</param>
    /// <param name="requestUri">The address, absolute or relative to <see cref="HttpClient.BaseAddress"/>; <see langword="null"/> or empty means the base address.</param>
    /// <param name="maxBytes">The largest body accepted; it can lower the client's <see cref="HttpClient.MaxResponseContentBufferSize"/>, never
    /// raise it. By default the smaller of that and <see cref="PooledBodyReader.DefaultMaxBytes"/>.</param>
    /// <param name="pool">The pool to rent from; <see cref="BodyPool.Shared"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Cancels the request and the read.</param>
    /// <inheritdoc cref="PooledHttpClientExtensions.GetPooledAsync(HttpClient, Uri?, int?, ArrayPool{byte}?, CancellationToken)" path="/returns"/>
    /// <inheritdoc cref="PooledHttpClientExtensions.GetPooledAsync(HttpClient, Uri?, int?, ArrayPool{byte}?, CancellationToken)" path="/exception"/>
    /// <exception cref="UriFormatException"><paramref name="requestUri"/> is not a valid address (thrown at the call, as HttpClient throws it).</exception>
    public static ValueTask<PooledBuffer> GetPooledAsync(this HttpClient client, string? requestUri, int? maxBytes = null, ArrayPool<byte>? pool = null, CancellationToken cancellationToken = default)
        => client.GetPooledAsync(PooledHttpClientExtensions.CreateUri(requestUri), maxBytes, pool, cancellationToken);
}
