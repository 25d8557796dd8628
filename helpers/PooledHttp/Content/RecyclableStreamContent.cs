using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using Microsoft.IO;

namespace PooledHttp.Content;

/// <summary>
/// A request body held in a <see cref="RecyclableMemoryStream"/>, sent with a Content-Length.
/// </summary>
/// <remarks>
/// <para>Unlike <see cref="StreamContent"/>, this content does not read the stream from its current
/// position: it sends the stream's whole contents from its block list, so there is no "forgot to
/// rewind" bug and the content can be sent more than once.</para>
/// <para><b>Ownership.</b> The content takes ownership of the stream and disposes it (which returns its
/// blocks to the manager) when the content is disposed, normally with the request. <c>SendAsync</c> can
/// complete while the body is still being written (HTTP/2 duplex, or <c>Expect: 100-continue</c> answered
/// early; dotnet/runtime issue #107082), so disposing only marks the content: the blocks go back when the
/// last serialization in progress has ended, never while a write may still read them, or another renter's
/// bytes would go out in this body. Dispose is idempotent; sending after dispose throws
/// <see cref="ObjectDisposedException"/>.</para>
/// </remarks>
public sealed class RecyclableStreamContent : HttpContent
{
    private readonly RecyclableMemoryStream _stream;
    private readonly SerializationGuard _guard;

    /// <summary>Wraps <paramref name="stream"/>, with no Content-Type; the content now owns it.</summary>
    /// <param name="stream">The body, whatever its position: the whole stream is sent.</param>
    public RecyclableStreamContent(RecyclableMemoryStream stream)
        : this(stream, (MediaTypeHeaderValue?)null)
    {
    }

    /// <summary>Wraps <paramref name="stream"/>; the content now owns it.</summary>
    /// <param name="stream">The body, whatever its position: the whole stream is sent.</param>
    /// <param name="mediaType">The Content-Type's media type, sent as it is, with no parameters (no charset); none when <see langword="null"/>.</param>
    public RecyclableStreamContent(RecyclableMemoryStream stream, string? mediaType)
        : this(stream, mediaType is null ? null : new MediaTypeHeaderValue(mediaType))
    {
    }

    /// <summary>Wraps <paramref name="stream"/>; the content now owns it.</summary>
    /// <param name="stream">The body, whatever its position: the whole stream is sent.</param>
    /// <param name="contentType">The Content-Type, parameters (a charset, for text) included, sent as given; none when <see langword="null"/>.</param>
    public RecyclableStreamContent(RecyclableMemoryStream stream, MediaTypeHeaderValue? contentType)
    {
        _stream = stream ?? throw new ArgumentNullException(nameof(stream));
        _guard = new SerializationGuard(stream);
        Headers.ContentType = contentType;
    }

    /// <summary>Serializes <paramref name="value"/> with <see cref="PooledJson.Options"/> into a stream from <see cref="RecyclableStreams.Manager"/> and wraps it, sent as <c>application/json; charset=utf-8</c>.</summary>
    /// <param name="value">The value to send.</param>
    [RequiresUnreferencedCode(PooledJson.ReflectionReason)]
    [RequiresDynamicCode(PooledJson.ReflectionReason)]
    public static RecyclableStreamContent CreateJson<T>(T value) => CreateJson(value, (JsonSerializerOptions?)null, null);

    /// <summary>Serializes <paramref name="value"/> as JSON into a pooled stream and wraps it, sent as <c>application/json; charset=utf-8</c>.</summary>
    /// <param name="value">The value to send.</param>
    /// <param name="options">Serializer options; <see cref="PooledJson.Options"/> when <see langword="null"/>. Reuse one instance.</param>
    /// <param name="manager">The manager to take the stream from; <see cref="RecyclableStreams.Manager"/> when <see langword="null"/>.</param>
    [RequiresUnreferencedCode(PooledJson.ReflectionReason)]
    [RequiresDynamicCode(PooledJson.ReflectionReason)]
    public static RecyclableStreamContent CreateJson<T>(T value, JsonSerializerOptions? options, RecyclableMemoryStreamManager? manager)
    {
        RecyclableMemoryStream stream = (manager ?? RecyclableStreams.Manager).GetStream(nameof(RecyclableStreamContent));
        try
        {
            using (var writer = new Utf8JsonWriter((IBufferWriter<byte>)stream))
            {
                JsonSerializer.Serialize(writer, value, options ?? PooledJson.Options);
            }

            return Json(stream);
        }
        catch
        {
            stream.Dispose();
            throw;
        }
    }

    /// <summary>Serializes <paramref name="value"/> with source-generated metadata into a stream from <see cref="RecyclableStreams.Manager"/>: safe under trimming and native AOT.</summary>
    /// <param name="value">The value to send.</param>
    /// <param name="jsonTypeInfo">The type's metadata, from a <see cref="System.Text.Json.Serialization.JsonSerializerContext"/>.</param>
    public static RecyclableStreamContent CreateJson<T>(T value, JsonTypeInfo<T> jsonTypeInfo) => CreateJson(value, jsonTypeInfo, null);

    /// <summary>Serializes <paramref name="value"/> with source-generated metadata into a pooled stream: safe under trimming and native AOT.</summary>
    /// <param name="value">The value to send.</param>
    /// <param name="jsonTypeInfo">The type's metadata, from a <see cref="System.Text.Json.Serialization.JsonSerializerContext"/>.</param>
    /// <param name="manager">The manager to take the stream from; <see cref="RecyclableStreams.Manager"/> when <see langword="null"/>.</param>
    public static RecyclableStreamContent CreateJson<T>(T value, JsonTypeInfo<T> jsonTypeInfo, RecyclableMemoryStreamManager? manager)
    {
        ArgumentNullException.ThrowIfNull(jsonTypeInfo);
        RecyclableMemoryStream stream = (manager ?? RecyclableStreams.Manager).GetStream(nameof(RecyclableStreamContent));
        try
        {
            using (var writer = new Utf8JsonWriter((IBufferWriter<byte>)stream))
            {
                JsonSerializer.Serialize(writer, value, jsonTypeInfo);
            }

            return Json(stream);
        }
        catch
        {
            stream.Dispose();
            throw;
        }
    }

    private static RecyclableStreamContent Json(RecyclableMemoryStream stream) => new(stream, new MediaTypeHeaderValue("application/json") { CharSet = "utf-8" });

    /// <inheritdoc />
    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) => SerializeToStreamAsync(stream, context, CancellationToken.None);

    /// <inheritdoc />
    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(stream);
        _guard.Enter(this);
        try
        {
            foreach (ReadOnlyMemory<byte> segment in _stream.GetReadOnlySequence())
            {
                await stream.WriteAsync(segment, cancellationToken).ConfigureAwait(false);
            }
        }
        finally
        {
            _guard.Exit();
        }
    }

    /// <summary>The synchronous path <see cref="HttpClient.Send(HttpRequestMessage)"/> takes; without it that call throws <see cref="NotSupportedException"/>.</summary>
    protected override void SerializeToStream(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(stream);
        _guard.Enter(this);
        try
        {
            foreach (ReadOnlyMemory<byte> segment in _stream.GetReadOnlySequence())
            {
                cancellationToken.ThrowIfCancellationRequested();
                stream.Write(segment.Span);
            }
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
        length = live ? _stream.Length : 0;
        return live;
    }

    /// <summary>Marks the content disposed; the stream's blocks go back now, or when the last serialization in progress ends.</summary>
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _guard.Dispose();
        }

        base.Dispose(disposing);
    }
}
