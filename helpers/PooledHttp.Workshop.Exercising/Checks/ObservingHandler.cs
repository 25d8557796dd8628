using System.Net;
using System.Net.Http.Headers;

namespace PooledHttp.Workshop.Checks;

/// <summary>
/// A handler for the check process's client that watches what the learner's code does with the
/// contents, without changing what goes over the wire: which request bodies had a length (sent with a
/// Content-Length rather than chunked) and what bytes they were; which response bodies were buffered
/// whole before the learner read them, and which were disposed.
/// </summary>
internal sealed class ObservingHandler() : DelegatingHandler(new SocketsHttpHandler())
{
    private readonly List<ObservedRequest> _requests = [];
    private readonly List<ObservedResponse> _responses = [];

    public IReadOnlyList<ObservedRequest> Requests => _requests;

    public IReadOnlyList<ObservedResponse> Responses => _responses;

    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        if (request.Content is { } content)
        {
            var observed = new ObservedRequest(content);
            _requests.Add(observed);
            request.Content = observed;
        }

        HttpResponseMessage response = await base.SendAsync(request, cancellationToken).ConfigureAwait(false);
        var watched = new ObservedResponse(response.Content);
        _responses.Add(watched);
        response.Content = watched;
        return response;
    }

    /// <summary>A request body passed through as it is sent, its bytes kept for the check.</summary>
    internal sealed class ObservedRequest : HttpContent
    {
        private readonly HttpContent _inner;
        private readonly MemoryStream _sent = new();

        public ObservedRequest(HttpContent inner)
        {
            _inner = inner;
            foreach (KeyValuePair<string, HeaderStringValues> header in inner.Headers.NonValidated.Where(h => h.Key != "Content-Length"))
            {
                Headers.TryAddWithoutValidation(header.Key, (IEnumerable<string>)header.Value);
            }

            // Asking the inner content for its length is what the handler would do: null means chunked.
            DeclaredLength = inner.Headers.ContentLength;
            Headers.ContentLength = DeclaredLength;
        }

        /// <summary>The length the learner's content declared, or null: sent chunked.</summary>
        public long? DeclaredLength { get; }

        /// <summary>The bytes that went to the server.</summary>
        public byte[] Sent => _sent.ToArray();

        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
        {
            long start = _sent.Length;
            await _inner.CopyToAsync(_sent, cancellationToken).ConfigureAwait(false);
            await stream.WriteAsync(_sent.GetBuffer().AsMemory((int)start, (int)(_sent.Length - start)), cancellationToken).ConfigureAwait(false);
        }

        protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) => SerializeToStreamAsync(stream, context, CancellationToken.None);

        protected override bool TryComputeLength(out long length)
        {
            length = DeclaredLength ?? 0;
            return DeclaredLength is not null;
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

    /// <summary>A response body that notes whether it was buffered whole, and whether it was disposed.</summary>
    internal sealed class ObservedResponse : HttpContent
    {
        private readonly HttpContent _inner;

        public ObservedResponse(HttpContent inner)
        {
            _inner = inner;
            foreach (KeyValuePair<string, HeaderStringValues> header in inner.Headers.NonValidated)
            {
                Headers.TryAddWithoutValidation(header.Key, (IEnumerable<string>)header.Value);
            }
        }

        /// <summary>Whether the whole body was copied into a buffer other than a rented array (what <c>ResponseContentRead</c>,
        /// <c>ReadAsStringAsync</c> and a copy into a <see cref="MemoryStream"/> do). The library's <c>ReadPooledAsync</c> copies the
        /// content too, as <c>ReadAsByteArrayAsync</c> does, but into a <see cref="PooledHttp.Buffers.PooledBufferStream"/> over
        /// rented arrays (or into <see cref="Stream.Null"/>, for a response that has no body): that is the pooled read, not a buffer.</summary>
        public bool Buffered { get; private set; }

        /// <summary>Whether the response, and with it this content, was disposed.</summary>
        public bool Disposed { get; private set; }

        protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
        {
            Buffered |= stream is not PooledHttp.Buffers.PooledBufferStream && stream != Stream.Null;
            return _inner.CopyToAsync(stream, cancellationToken);
        }

        protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) => SerializeToStreamAsync(stream, context, CancellationToken.None);

        protected override Task<Stream> CreateContentReadStreamAsync(CancellationToken cancellationToken) => _inner.ReadAsStreamAsync(cancellationToken);

        protected override Task<Stream> CreateContentReadStreamAsync() => _inner.ReadAsStreamAsync();

        protected override bool TryComputeLength(out long length)
        {
            length = _inner.Headers.ContentLength ?? 0;
            return _inner.Headers.ContentLength is not null;
        }

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                Disposed = true;
                _inner.Dispose();
            }

            base.Dispose(disposing);
        }
    }
}
