using System.Collections.Concurrent;
using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace PooledHttp.Workshop.Server;

/// <summary>
/// A small HTTP/1.1 server on 127.0.0.1 for the notebooks and the tests, built on
/// <see cref="HttpListener"/> as in "Removing Memory Allocations in HTTP Requests Using ArrayPool&lt;T&gt;".
/// </summary>
/// <remarks>
/// <para>Start it with <c>await using var server = LocalServer.Start();</c>. It listens on loopback
/// only, on a free ephemeral port, and serves requests concurrently. Disposing it stops the listener
/// and closes its socket, so the next "Run All" can start another straight away.</para>
/// <para>Endpoints (all GET unless noted):</para>
/// <list type="bullet">
/// <item><c>/bytes?size=N[&amp;length=true][&amp;writes=K][&amp;delayMs=D][&amp;skip=S]</c>: N pattern bytes (<see cref="Payload"/>), chunked unless
/// <c>length=true</c>, written in K writes (default 1, as the source did), each flushed and followed by a pause of D ms
/// (default 1) when K &gt; 1, the pattern started S bytes in (0 to 250), so that bodies fetched at once can differ.
/// <see cref="BodiesInFlight"/> counts these bodies while they are written.</item>
/// <item><c>/gzip?size=N[&amp;length=true]</c>: the same N pattern bytes, gzip-compressed (<c>Content-Encoding: gzip</c>), with the
/// compressed length or chunked.</item>
/// <item><c>/books?count=N</c>: a JSON array of N <see cref="Book"/>s, with a Content-Length.</item>
/// <item><c>POST /sink</c>: drains the request body and answers with its length in bytes, as text.</item>
/// <item><c>/status?code=N</c>: answers status N with a short text body.</item>
/// <item><c>/truncated?declared=N&amp;sent=M</c>: declares N bytes, sends M &lt; N, then drops the connection.</item>
/// <item><see cref="ResetUrl"/>: starts a chunked body and resets the connection (TCP RST) after M bytes.
/// Served from a second loopback port, because HttpListener cannot reset a connection.</item>
/// <item><c>/slow?size=N[&amp;chunk=C][&amp;delayMs=D]</c>: a chunked body written C bytes at a time, D ms apart.</item>
/// </list>
/// <para>HttpListener on Linux and macOS is the managed implementation: HTTP/1.1 only, and it closes a
/// keep-alive connection after 100 requests. Its own allocations happen in this process, which is why
/// benchmarks run the client in another one.</para>
/// </remarks>
public sealed class LocalServer : IAsyncDisposable
{
    /// <summary>How many ports to try before giving up: another process can take a port between our probe and our bind.</summary>
    private const int MaxBindAttempts = 20;

    private readonly HttpListener _listener;
    private readonly CancellationTokenSource _stopping = new();
    private readonly ConcurrentDictionary<int, Task> _inFlight = new();
    private readonly Task _acceptLoop;
    private readonly ResetResponder _reset = new();
    private int _nextRequestId;
    private int _disposed;

    private LocalServer(HttpListener listener, int port)
    {
        _listener = listener;
        Port = port;
        BaseAddress = new Uri($"http://127.0.0.1:{port}/");
        _acceptLoop = Task.Run(AcceptLoopAsync);
    }

    /// <summary>The port the server listens on.</summary>
    public int Port { get; }

    /// <summary>The server's address, ending in a slash: <c>http://127.0.0.1:PORT/</c>.</summary>
    public Uri BaseAddress { get; }

    /// <summary>What points a benchmark process at this server: its address, in a <see cref="RunContext"/>.</summary>
    public RunContext Context => new() { Server = BaseAddress };

    /// <summary>The <c>/bytes</c> bodies being written now, and the most at once: whether downloads really overlapped.</summary>
    public TransferGauge BodiesInFlight { get; } = new();

    /// <summary>Starts a server on a free loopback port.</summary>
    /// <exception cref="InvalidOperationException">No port could be bound after several attempts.</exception>
    public static LocalServer Start()
    {
        HttpListenerException? last = null;
        for (int attempt = 0; attempt < MaxBindAttempts; attempt++)
        {
            int port = FindFreePort();
            var listener = new HttpListener { IgnoreWriteExceptions = true };
            listener.Prefixes.Add($"http://127.0.0.1:{port}/");
            try
            {
                listener.Start();
                return new LocalServer(listener, port);
            }
            catch (HttpListenerException e)
            {
                // Someone took the port between the probe and the bind: try another.
                last = e;
                listener.Close();
            }
        }

        throw new InvalidOperationException($"Could not bind a loopback port after {MaxBindAttempts} attempts.", last);
    }

    /// <summary>An absolute address on this server, e.g. <c>server.Url("bytes?size=1024")</c>.</summary>
    public Uri Url(string pathAndQuery) => new(BaseAddress, pathAndQuery);

    /// <summary>The address of <c>/bytes</c> for a body of <paramref name="size"/> bytes.</summary>
    public Uri BytesUrl(int size, bool contentLength = false, int writes = 1, int skip = 0)
        => Url(ServerPaths.Bytes(size, contentLength, writes, skip));

    /// <summary>The address of a body sent as a real network sends it: in <paramref name="pace"/>'s writes, with its pauses between them.</summary>
    public Uri PacedBytesUrl(int size, bool contentLength, Pace pace)
        => Url(ServerPaths.PacedBytes(size, contentLength, pace));

    /// <summary>The address of <c>/gzip</c>: <paramref name="size"/> pattern bytes, gzip-compressed on the wire.</summary>
    public Uri GzipUrl(int size, bool contentLength = false) => Url(ServerPaths.Gzip(size, contentLength));

    /// <summary>The address of a chunked body of <paramref name="size"/> bytes whose connection is reset after <paramref name="after"/> bytes.</summary>
    public Uri ResetUrl(int size, int after)
        => new(string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{_reset.Port}/reset?size={size}&after={after}"));

    /// <summary>Stops listening, closes the socket, and waits for requests in flight to finish.</summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        await _stopping.CancelAsync().ConfigureAwait(false);
        _listener.Close();
        await _reset.DisposeAsync().ConfigureAwait(false);
        try
        {
            // Bounded, like the handlers below: a closed listener ends the loop at once, and a stop must not hang on it if it does not.
            await _acceptLoop.WaitAsync(TimeSpan.FromSeconds(10)).ConfigureAwait(false);
            await Task.WhenAll(_inFlight.Values).WaitAsync(TimeSpan.FromSeconds(10)).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            // A handler stuck on a client that stopped reading: the socket is closed regardless.
        }
        finally
        {
            _stopping.Dispose();
        }
    }

    private static int FindFreePort()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        return ((IPEndPoint)probe.LocalEndpoint).Port;
    }

    private async Task AcceptLoopAsync()
    {
        while (!_stopping.IsCancellationRequested)
        {
            HttpListenerContext context;
            try
            {
                context = await _listener.GetContextAsync().ConfigureAwait(false);
            }
            catch (Exception e) when (e is HttpListenerException or ObjectDisposedException or InvalidOperationException)
            {
                return; // the listener was closed
            }

            int id = Interlocked.Increment(ref _nextRequestId);
            Task handler = Task.Run(() => HandleAsync(context));
            _inFlight[id] = handler;
            _ = handler.ContinueWith(_ => _inFlight.TryRemove(id, out Task? _), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        }
    }

    private async Task HandleAsync(HttpListenerContext context)
    {
        HttpListenerResponse response = context.Response;
        try
        {
            await Endpoints.HandleAsync(context, BodiesInFlight, _stopping.Token).ConfigureAwait(false);
            response.Close();
        }
        catch (BadRequestException e)
        {
            await TryAnswerAsync(response, 400, e.Message).ConfigureAwait(false);
        }
        catch (Exception e) when (e is HttpListenerException or IOException or ObjectDisposedException or OperationCanceledException)
        {
            // The client went away, or the server is stopping: nothing left to answer.
            response.Abort();
        }
        catch (Exception e)
        {
            // A bug in an endpoint: answer 500 with the reason rather than hang the client.
            await TryAnswerAsync(response, 500, e.ToString()).ConfigureAwait(false);
        }
    }

    private static async Task TryAnswerAsync(HttpListenerResponse response, int status, string message)
    {
        try
        {
            byte[] body = System.Text.Encoding.UTF8.GetBytes(message);
            response.StatusCode = status;
            response.ContentType = "text/plain; charset=utf-8";
            response.ContentLength64 = body.Length;
            await response.OutputStream.WriteAsync(body).ConfigureAwait(false);
            response.Close();
        }
        catch (Exception)
        {
            // Headers already went out (the error came mid-body): all we can do is drop the connection.
            response.Abort();
        }
    }
}
