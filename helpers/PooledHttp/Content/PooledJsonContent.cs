using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Net;
using System.Net.Http.Headers;
using System.Runtime.CompilerServices;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using PooledHttp.Buffers;

namespace PooledHttp.Content;

/// <summary>
/// A JSON request body serialized with System.Text.Json into one pooled array, sent with a
/// Content-Length.
/// </summary>
/// <remarks>
/// <para>Serialization happens once, in <see cref="Create{T}(T, JsonSerializerOptions?, ArrayPool{byte}?, int, MediaTypeHeaderValue?)"/>,
/// straight into a <see cref="PooledBufferStream"/>: no string, no intermediate copy. Knowing the length up front lets
/// the body go out with a Content-Length instead of chunked, and the content can be sent again, in a new request (a
/// retry), because the bytes stay until the content is disposed. Neither <c>SendAsync</c> nor <c>SendPooledAsync</c>
/// disposes a caller's request or its content.</para>
/// <para><b>Ownership.</b> The content owns the pooled array and returns it when disposed. Disposing
/// the <see cref="HttpRequestMessage"/> disposes its content, so <c>using var request = ...</c> is
/// enough; a content sent in several requests is disposed once, after the last (dispose the content, or the last request). <c>SendAsync</c> can complete before the content has finished serializing (HTTP/2 duplex,
/// or <c>Expect: 100-continue</c> answered early with a final status; dotnet/runtime issue #107082), so
/// disposing only marks the content: the array goes back when the last serialization in progress has
/// ended, never while a write may still read it. Dispose is idempotent; sending after dispose throws
/// <see cref="ObjectDisposedException"/>.</para>
/// </remarks>
public sealed class PooledJsonContent : HttpContent
{
    private readonly PooledBuffer _body;
    private readonly SerializationGuard _guard;

    private PooledJsonContent(PooledBuffer body, MediaTypeHeaderValue? mediaType)
    {
        _body = body;
        _guard = new SerializationGuard(body);
        Headers.ContentType = mediaType ?? new MediaTypeHeaderValue("application/json") { CharSet = "utf-8" };
    }

    /// <summary>
    /// Serializes <paramref name="value"/> into a pooled buffer and wraps it as content. The parameters are
    /// <see cref="System.Net.Http.Json.JsonContent.Create{T}(T, MediaTypeHeaderValue?, JsonSerializerOptions?)"/>'s where it has
    /// them, and may be given by position or by name: <c>Create(value, options)</c>, <c>Create(value, options: o)</c>,
    /// <c>Create(problem, mediaType: new MediaTypeHeaderValue("application/problem+json"))</c>,
    /// <c>Create(value, null, null, 1024)</c>.
    /// </summary>
    /// <param name="value">The value to send.</param>
    /// <param name="options">Serializer options; <see cref="PooledJson.Options"/> when <see langword="null"/>. Reuse one instance.</param>
    /// <param name="pool">The pool to rent from; <see cref="ArrayPool{T}.Shared"/> when <see langword="null"/>.</param>
    /// <param name="maxBytes">The largest body to build; a bigger one throws <see cref="BufferLimitExceededException"/> (a local
    /// limit, not an HTTP failure: no request exists yet) and returns its arrays. What is rented on the way stays bounded too:
    /// never more than about three times this limit (the serializer asks room for the worst case of a string before it writes
    /// it; see <see cref="PooledBufferStream.GetMemory"/>).</param>
    /// <param name="mediaType">The Content-Type, sent as given (<c>application/problem+json</c>, for example);
    /// <c>application/json; charset=utf-8</c> when <see langword="null"/>. The body is UTF-8, so a charset, if given, must be utf-8.</param>
    /// <exception cref="BufferLimitExceededException">The body would be larger than <paramref name="maxBytes"/>.</exception>
    /// <exception cref="ArgumentException"><paramref name="mediaType"/> names a charset other than utf-8.</exception>
    [RequiresUnreferencedCode(PooledJson.ReflectionReason)]
    [RequiresDynamicCode(PooledJson.ReflectionReason)]
    [OverloadResolutionPriority(1)] // Create(value, null) means "no options", as it reads, not a null JsonTypeInfo<T>
    public static PooledJsonContent Create<T>(T value, JsonSerializerOptions? options = null, ArrayPool<byte>? pool = null, int maxBytes = int.MaxValue, MediaTypeHeaderValue? mediaType = null)
    {
        ThrowIfNotUtf8(mediaType);
        using var buffer = new PooledBufferStream(maxBytes, 0, pool);
        using (var writer = new Utf8JsonWriter((IBufferWriter<byte>)buffer))
        {
            JsonSerializer.Serialize(writer, value, options ?? PooledJson.Options);
        }

        return new PooledJsonContent(buffer.DetachBuffer(), mediaType);
    }

    /// <summary>Serializes <paramref name="value"/> with source-generated metadata into a buffer from <see cref="ArrayPool{T}.Shared"/>,
    /// sent as <c>application/json; charset=utf-8</c>: safe under trimming and native AOT.</summary>
    /// <param name="value">The value to send.</param>
    /// <param name="jsonTypeInfo">The type's metadata, from a <see cref="System.Text.Json.Serialization.JsonSerializerContext"/>.</param>
    public static PooledJsonContent Create<T>(T value, JsonTypeInfo<T> jsonTypeInfo) => Create(value, jsonTypeInfo, default(PooledContentOptions));

    /// <summary>Serializes <paramref name="value"/> with source-generated metadata into a pooled buffer: safe under trimming and native AOT.</summary>
    /// <param name="value">The value to send.</param>
    /// <param name="jsonTypeInfo">The type's metadata, from a <see cref="System.Text.Json.Serialization.JsonSerializerContext"/>.</param>
    /// <param name="contentOptions">The pool, the limit and the media type, each as for
    /// <see cref="Create{T}(T, JsonSerializerOptions?, ArrayPool{byte}?, int, MediaTypeHeaderValue?)"/>:
    /// <c>Create(order, AppJson.Default.Order, new() { MaxBytes = 64 * 1024 })</c>.</param>
    /// <exception cref="BufferLimitExceededException">The body would be larger than <see cref="PooledContentOptions.MaxBytes"/>.</exception>
    /// <exception cref="ArgumentException">The media type names a charset other than utf-8.</exception>
    public static PooledJsonContent Create<T>(T value, JsonTypeInfo<T> jsonTypeInfo, PooledContentOptions contentOptions)
    {
        ArgumentNullException.ThrowIfNull(jsonTypeInfo);
        ThrowIfNotUtf8(contentOptions.MediaType);
        using var buffer = new PooledBufferStream(contentOptions.MaxBytes ?? int.MaxValue, 0, contentOptions.Pool);
        using (var writer = new Utf8JsonWriter((IBufferWriter<byte>)buffer))
        {
            JsonSerializer.Serialize(writer, value, jsonTypeInfo);
        }

        return new PooledJsonContent(buffer.DetachBuffer(), contentOptions.MediaType);
    }

    private static void ThrowIfNotUtf8(MediaTypeHeaderValue? mediaType)
    {
        // "utf8" is an alias Encoding.GetEncoding accepts for UTF-8 too.
        if (mediaType?.CharSet is { } charSet && charSet.Trim('"') is var name
            && !name.Equals("utf-8", StringComparison.OrdinalIgnoreCase) && !name.Equals("utf8", StringComparison.OrdinalIgnoreCase))
        {
            throw new ArgumentException($"The body is UTF-8; the media type's charset '{charSet}' would misdescribe it.", nameof(mediaType));
        }
    }

    /// <summary>The serialized bytes. Valid until the content is disposed; after that it throws <see cref="ObjectDisposedException"/>.</summary>
    public ReadOnlyMemory<byte> Body => _guard.IsDisposed ? throw new ObjectDisposedException(nameof(PooledJsonContent)) : _body.Memory;

    /// <inheritdoc />
    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) => SerializeToStreamAsync(stream, context, CancellationToken.None);

    /// <inheritdoc />
    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(stream);
        _guard.Enter(this);
        try
        {
            await stream.WriteAsync(_body.Memory, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            _guard.Exit();
        }
    }

    /// <inheritdoc />
    protected override void SerializeToStream(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(stream);
        _guard.Enter(this);
        try
        {
            stream.Write(_body.Span);
        }
        finally
        {
            _guard.Exit();
        }
    }

    /// <inheritdoc />
    protected override bool TryComputeLength(out long length)
    {
        bool live = !_guard.IsDisposed;
        length = live ? _body.Length : 0;
        return live;
    }

    /// <summary>Marks the content disposed; the array goes back now, or when the last serialization in progress ends.</summary>
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _guard.Dispose();
        }

        base.Dispose(disposing);
    }
}
