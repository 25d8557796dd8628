using System.Buffers;
using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using PooledHttp.Buffers;

namespace PooledHttp.Content;

/// <summary>
/// A JSON request body serialized with System.Text.Json into one pooled array, sent with a
/// Content-Length.
/// </summary>
/// <remarks>
/// <para>Serialization happens once, in <see cref="Create{T}"/>, straight into a
/// <see cref="PooledBufferStream"/>: no string, no intermediate copy. Knowing the length up front lets
/// the body go out with a Content-Length instead of chunked, and the content can be sent again (a
/// retry, a redirect) because the bytes stay until disposal.</para>
/// <para><b>Ownership.</b> The content owns the pooled array and returns it when disposed. Disposing
/// the <see cref="HttpRequestMessage"/> disposes its content, so <c>using var request = ...</c> is
/// enough; do not dispose the content while a send that uses it is still running. Dispose is
/// idempotent; sending after dispose throws <see cref="ObjectDisposedException"/>.</para>
/// </remarks>
public sealed class PooledJsonContent : HttpContent
{
    private readonly PooledBuffer _body;

    private PooledJsonContent(PooledBuffer body)
    {
        _body = body;
        Headers.ContentType = new MediaTypeHeaderValue("application/json") { CharSet = "utf-8" };
    }

    /// <summary>Serializes <paramref name="value"/> into a pooled buffer and wraps it as content.</summary>
    /// <param name="value">The value to send.</param>
    /// <param name="options">Serializer options; <see cref="PooledJson.Options"/> when <see langword="null"/>. Reuse one instance.</param>
    /// <param name="pool">The pool to rent from; <see cref="ArrayPool{T}.Shared"/> when <see langword="null"/>.</param>
    /// <param name="maxBytes">The largest body to build; a bigger one throws <see cref="PayloadTooLargeException"/> and returns its arrays.</param>
    public static PooledJsonContent Create<T>(T value, JsonSerializerOptions? options = null, ArrayPool<byte>? pool = null, int maxBytes = int.MaxValue)
    {
        using var buffer = new PooledBufferStream(maxBytes, 0, pool);
        using (var writer = new Utf8JsonWriter((IBufferWriter<byte>)buffer))
        {
            JsonSerializer.Serialize(writer, value, options ?? PooledJson.Options);
        }

        return new PooledJsonContent(buffer.DetachBuffer());
    }

    /// <summary>The serialized bytes. Valid until the content is disposed.</summary>
    public ReadOnlyMemory<byte> Body => _body.Memory;

    /// <inheritdoc />
    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) => SerializeToStreamAsync(stream, context, CancellationToken.None);

    /// <inheritdoc />
    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
        => stream.WriteAsync(_body.Memory, cancellationToken).AsTask();

    /// <inheritdoc />
    protected override void SerializeToStream(Stream stream, TransportContext? context, CancellationToken cancellationToken)
        => stream.Write(_body.Span);

    /// <inheritdoc />
    protected override bool TryComputeLength(out long length)
    {
        length = _body.IsDisposed ? 0 : _body.Length;
        return !_body.IsDisposed;
    }

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _body.Dispose();
        }

        base.Dispose(disposing);
    }
}
