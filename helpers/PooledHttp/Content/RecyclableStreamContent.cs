using System.Buffers;
using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
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
/// blocks to the manager) when the content is disposed, normally with the request. Idempotent.</para>
/// </remarks>
public sealed class RecyclableStreamContent : HttpContent
{
    private RecyclableMemoryStream? _stream;

    /// <summary>Wraps <paramref name="stream"/>; the content now owns it.</summary>
    public RecyclableStreamContent(RecyclableMemoryStream stream, string? mediaType = null)
    {
        _stream = stream ?? throw new ArgumentNullException(nameof(stream));
        if (mediaType is not null)
        {
            Headers.ContentType = new MediaTypeHeaderValue(mediaType) { CharSet = "utf-8" };
        }
    }

    /// <summary>Serializes <paramref name="value"/> as JSON into a pooled stream and wraps it.</summary>
    public static RecyclableStreamContent CreateJson<T>(T value, JsonSerializerOptions? options = null, RecyclableMemoryStreamManager? manager = null)
    {
        RecyclableMemoryStream stream = (manager ?? RecyclableStreams.Manager).GetStream(nameof(RecyclableStreamContent));
        try
        {
            using (var writer = new Utf8JsonWriter((IBufferWriter<byte>)stream))
            {
                JsonSerializer.Serialize(writer, value, options ?? PooledJson.Options);
            }

            return new RecyclableStreamContent(stream, "application/json");
        }
        catch
        {
            stream.Dispose();
            throw;
        }
    }

    /// <inheritdoc />
    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) => SerializeToStreamAsync(stream, context, CancellationToken.None);

    /// <inheritdoc />
    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        ReadOnlySequence<byte> body = Source.GetReadOnlySequence();
        foreach (ReadOnlyMemory<byte> segment in body)
        {
            await stream.WriteAsync(segment, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>The synchronous path <see cref="HttpClient.Send(HttpRequestMessage)"/> takes; without it that call throws <see cref="NotSupportedException"/>.</summary>
    protected override void SerializeToStream(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(stream);
        ReadOnlySequence<byte> body = Source.GetReadOnlySequence();
        foreach (ReadOnlyMemory<byte> segment in body)
        {
            cancellationToken.ThrowIfCancellationRequested();
            stream.Write(segment.Span);
        }
    }

    /// <inheritdoc />
    protected override bool TryComputeLength(out long length)
    {
        length = _stream?.Length ?? 0;
        return _stream is not null;
    }

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            Interlocked.Exchange(ref _stream, null)?.Dispose();
        }

        base.Dispose(disposing);
    }

    private RecyclableMemoryStream Source => _stream ?? throw new ObjectDisposedException(nameof(RecyclableStreamContent));
}
