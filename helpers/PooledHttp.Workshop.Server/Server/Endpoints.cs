using System.Buffers;
using System.Collections.Specialized;
using System.Globalization;
using System.Net;
using System.Text;

namespace PooledHttp.Workshop.Server;

/// <summary>The request handlers of <see cref="LocalServer"/>. Each returns whether the response is still open for the caller to close.</summary>
internal static class Endpoints
{
    /// <summary>The largest body the server will generate: big enough for the 64 MiB sweep, small enough to fail fast on a typo.</summary>
    internal const int MaxBodySize = 256 * 1024 * 1024;

    /// <summary>The pause of <c>/slow</c> when the request names none: long enough for a test to cancel mid-body.</summary>
    private const int DefaultSlowDelayMs = 50;

    /// <summary>The chunk of <c>/slow</c> when the request names none.</summary>
    private const int DefaultSlowChunk = 1024;

    /// <summary>The pause between the writes of <c>/bytes</c> when the request asks for several and names no delay.</summary>
    private const int DefaultWriteDelayMs = 1;

    public static async Task HandleAsync(HttpListenerContext context, TransferGauge bodies, CancellationToken stopping)
    {
        HttpListenerRequest request = context.Request;
        HttpListenerResponse response = context.Response;
        NameValueCollection query = request.QueryString;
        string path = request.Url?.AbsolutePath.TrimEnd('/') ?? string.Empty;

        switch (path)
        {
            case "/bytes":
                await BytesAsync(response, Int(query, "size"), Bool(query, "length"), Int(query, "writes", 1, min: 1), Int(query, "delayMs", DefaultWriteDelayMs, max: 10_000), Int(query, "skip", 0, max: Payload.Period - 1), bodies, stopping).ConfigureAwait(false);
                break;
            case "/gzip":
                await GzipAsync(response, Int(query, "size"), Bool(query, "length"), stopping).ConfigureAwait(false);
                break;
            case "/books":
                byte[] json = Book.CatalogueJson(Int(query, "count", max: 1_000_000));
                response.ContentType = "application/json; charset=utf-8";
                response.ContentLength64 = json.Length;
                await response.OutputStream.WriteAsync(json, stopping).ConfigureAwait(false);
                break;
            case "/sink" when request.HttpMethod == "POST":
                await SinkAsync(request, response, stopping).ConfigureAwait(false);
                break;
            case "/status":
                int code = Int(query, "code", min: 100, max: 599);
                await TextAsync(response, code, $"Status {code} from the local server.", stopping).ConfigureAwait(false);
                break;
            case "/truncated":
                int declared = Int(query, "declared", min: 1);
                int sent = Int(query, "sent", max: declared - 1);
                response.ContentLength64 = declared;
                await response.OutputStream.WriteAsync(Payload.Get(declared).AsMemory(0, sent), stopping).ConfigureAwait(false);
                await response.OutputStream.FlushAsync(stopping).ConfigureAwait(false);
                throw new IOException("Truncated on purpose."); // HandleAsync aborts the connection
            case "/slow":
                await SlowAsync(response, Int(query, "size"), Int(query, "chunk", DefaultSlowChunk, min: 1), Int(query, "delayMs", DefaultSlowDelayMs, max: 10_000), stopping).ConfigureAwait(false);
                break;
            default:
                await TextAsync(response, 404, $"No endpoint at {path}. See LocalServer's documentation for the list.", stopping).ConfigureAwait(false);
                break;
        }
    }

    private static async Task BytesAsync(HttpListenerResponse response, int size, bool contentLength, int writes, int delayMs, int skip, TransferGauge bodies, CancellationToken stopping)
    {
        ReadOnlyMemory<byte> payload = Payload.Get(size + skip).AsMemory(skip);
        response.ContentType = "application/octet-stream";
        if (contentLength)
        {
            response.ContentLength64 = size;
        }
        else
        {
            response.SendChunked = true;
        }

        // Several writes, each flushed and followed by a pause, reach the client as separate reads spread
        // over time: what a real network does to a body, what a single ReadAsync cannot cope with, and what
        // makes downloads started together really overlap.
        int chunk = Math.Max(1, (size + writes - 1) / writes);
        bodies.Enter();
        try
        {
            for (int offset = 0; offset < size; offset += chunk)
            {
                await response.OutputStream.WriteAsync(payload.Slice(offset, Math.Min(chunk, size - offset)), stopping).ConfigureAwait(false);
                if (writes > 1)
                {
                    await response.OutputStream.FlushAsync(stopping).ConfigureAwait(false);
                    if (delayMs > 0)
                    {
                        await Task.Delay(delayMs, stopping).ConfigureAwait(false);
                    }
                }
            }
        }
        finally
        {
            bodies.Exit();
        }
    }

    /// <summary>The gzip of the first N payload bytes, made once per size: the pattern compresses to a few bytes per KiB.</summary>
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<int, byte[]> Compressed = new();

    private static async Task GzipAsync(HttpListenerResponse response, int size, bool contentLength, CancellationToken stopping)
    {
        byte[] body = Compressed.GetOrAdd(size, static n =>
        {
            using var compressed = new MemoryStream();
            using (var gzip = new System.IO.Compression.GZipStream(compressed, System.IO.Compression.CompressionLevel.Fastest, leaveOpen: true))
            {
                gzip.Write(Payload.Get(n));
            }

            return compressed.ToArray();
        });
        response.ContentType = "application/octet-stream";
        response.AddHeader("Content-Encoding", "gzip");
        if (contentLength)
        {
            response.ContentLength64 = body.Length; // the compressed length: what goes over the wire
        }
        else
        {
            response.SendChunked = true;
        }

        await response.OutputStream.WriteAsync(body, stopping).ConfigureAwait(false);
    }

    private static async Task SinkAsync(HttpListenerRequest request, HttpListenerResponse response, CancellationToken stopping)
    {
        byte[] buffer = ArrayPool<byte>.Shared.Rent(64 * 1024);
        long total = 0;
        try
        {
            int read;
            while ((read = await request.InputStream.ReadAsync(buffer, stopping).ConfigureAwait(false)) > 0)
            {
                total += read;
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }

        await TextAsync(response, 200, total.ToString(CultureInfo.InvariantCulture), stopping).ConfigureAwait(false);
    }

    private static async Task SlowAsync(HttpListenerResponse response, int size, int chunk, int delayMs, CancellationToken stopping)
    {
        byte[] payload = Payload.Get(size);
        response.SendChunked = true;
        for (int offset = 0; offset < size; offset += chunk)
        {
            await response.OutputStream.WriteAsync(payload.AsMemory(offset, Math.Min(chunk, size - offset)), stopping).ConfigureAwait(false);
            await response.OutputStream.FlushAsync(stopping).ConfigureAwait(false);
            await Task.Delay(delayMs, stopping).ConfigureAwait(false);
        }
    }

    private static async Task TextAsync(HttpListenerResponse response, int status, string text, CancellationToken stopping)
    {
        byte[] body = Encoding.UTF8.GetBytes(text);
        response.StatusCode = status;
        response.ContentType = "text/plain; charset=utf-8";
        response.ContentLength64 = body.Length;
        await response.OutputStream.WriteAsync(body, stopping).ConfigureAwait(false);
    }

    private static int Int(NameValueCollection query, string name, int? fallback = null, int min = 0, int max = MaxBodySize)
    {
        string? raw = query[name];
        if (raw is null)
        {
            return fallback ?? throw new BadRequestException($"Query parameter '{name}' is required.");
        }

        if (!int.TryParse(raw, NumberStyles.None, CultureInfo.InvariantCulture, out int value) || value < min || value > max)
        {
            throw new BadRequestException($"Query parameter '{name}' must be an integer from {min} to {max}; got '{raw}'.");
        }

        return value;
    }

    private static bool Bool(NameValueCollection query, string name) => string.Equals(query[name], "true", StringComparison.OrdinalIgnoreCase);
}

/// <summary>A request the server cannot serve; answered with 400 and the message.</summary>
internal sealed class BadRequestException(string message) : Exception(message);
