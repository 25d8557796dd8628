using System.Globalization;
using System.Net;
using System.Numerics;
using System.Web;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Trying;

/// <summary>
/// Runs a download the notebook shows, once, against the local server, before it is measured: the code
/// in the cell gets a client whose handler watches the wire (the status, and every body byte the code
/// reads, compared with what the server sent), and the result says whether the code read the whole body
/// and returned its length.
/// </summary>
/// <remarks>
/// The watching changes nothing the code can see: same headers, same framing, same stream semantics
/// (a read still returns what has arrived). It only counts and compares, so it is not what is measured:
/// BenchmarkDotNet runs the same code with a plain client in a process of its own.
/// </remarks>
public static class TryOnce
{
    /// <summary>Runs <paramref name="download"/> once against <paramref name="url"/> (a <c>/bytes</c> address of the local server).</summary>
    /// <typeparam name="T">What the download returns: the body's length, as <c>int</c> or <c>long</c>.</typeparam>
    public static async Task<TryResult> DownloadAsync<T>(Func<HttpClient, Uri, Task<T>> download, Uri url)
        where T : IBinaryInteger<T>
    {
        ArgumentNullException.ThrowIfNull(download);
        ArgumentNullException.ThrowIfNull(url);
        long expected = long.Parse(HttpUtility.ParseQueryString(url.Query)["size"]
            ?? throw new ArgumentException($"{url} is not a /bytes address of the local server (no size=).", nameof(url)), CultureInfo.InvariantCulture);
        using var watch = new WireWatch();
        using var client = new HttpClient(watch);
        try
        {
            T returned = await download(client, url).ConfigureAwait(false);
            return new TryResult(url, watch.Status, expected, watch.Read, watch.FirstMismatch, long.CreateChecked(returned), null);
        }
        catch (Exception e) when (e is HttpRequestException or IOException or InvalidOperationException or OperationCanceledException)
        {
            return new TryResult(url, watch.Status, expected, watch.Read, watch.FirstMismatch, null, e);
        }
    }

    /// <summary>A handler that passes everything through and compares each response byte read with the server's pattern.</summary>
    private sealed class WireWatch() : DelegatingHandler(new SocketsHttpHandler())
    {
        private long _read;

        public HttpStatusCode? Status { get; private set; }

        public long Read => Interlocked.Read(ref _read);

        public long? FirstMismatch { get; private set; }

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            HttpResponseMessage response = await base.SendAsync(request, cancellationToken).ConfigureAwait(false);
            Status = response.StatusCode;
            response.Content = new WatchedContent(response.Content, this);
            return response;
        }

        /// <summary>Counts <paramref name="bytes"/>, read at <paramref name="offset"/>, and notes the first that differs from the payload.</summary>
        public void Saw(ReadOnlySpan<byte> bytes, long offset)
        {
            Interlocked.Add(ref _read, bytes.Length);
            int mismatch = Payload.FirstMismatch(bytes, checked((int)offset)); // the series' bodies stay under 2 GiB
            if (mismatch >= 0 && FirstMismatch is null)
            {
                FirstMismatch = offset + mismatch;
            }
        }
    }

    /// <summary>The response's content with the same headers, read through a <see cref="WatchedStream"/>.</summary>
    private sealed class WatchedContent : HttpContent
    {
        private readonly HttpContent _inner;
        private readonly WireWatch _watch;

        public WatchedContent(HttpContent inner, WireWatch watch)
        {
            (_inner, _watch) = (inner, watch);
            foreach (KeyValuePair<string, IEnumerable<string>> header in inner.Headers)
            {
                Headers.TryAddWithoutValidation(header.Key, header.Value);
            }
        }

        protected override async Task<Stream> CreateContentReadStreamAsync(CancellationToken cancellationToken)
            => new WatchedStream(await _inner.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false), _watch);

        protected override Task<Stream> CreateContentReadStreamAsync() => CreateContentReadStreamAsync(CancellationToken.None);

        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
        {
            await using var body = new WatchedStream(await _inner.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false), _watch);
            await body.CopyToAsync(stream, cancellationToken).ConfigureAwait(false);
        }

        protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) => SerializeToStreamAsync(stream, context, CancellationToken.None);

        protected override bool TryComputeLength(out long length)
        {
            length = _inner.Headers.ContentLength ?? 0;
            return _inner.Headers.ContentLength is not null;
        }

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                _inner.Dispose();
            }

            base.Dispose(disposing);
        }
    }

    /// <summary>A read-only stream that shows every byte it returns to the watch.</summary>
    private sealed class WatchedStream(Stream inner, WireWatch watch) : Stream
    {
        private long _position;

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => _position; set => throw new NotSupportedException(); }

        public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

        public override int Read(Span<byte> buffer)
        {
            int read = inner.Read(buffer);
            Seen(buffer[..read]);
            return read;
        }

        public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
            => ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            int read = await inner.ReadAsync(buffer, cancellationToken).ConfigureAwait(false);
            Seen(buffer.Span[..read]);
            return read;
        }

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                inner.Dispose();
            }

            base.Dispose(disposing);
        }

        private void Seen(ReadOnlySpan<byte> bytes)
        {
            watch.Saw(bytes, _position);
            _position += bytes.Length;
        }
    }
}
