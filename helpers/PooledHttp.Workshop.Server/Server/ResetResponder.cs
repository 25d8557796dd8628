using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace PooledHttp.Workshop.Server;

/// <summary>
/// A raw-socket responder that starts a chunked body and then resets the connection (TCP RST).
/// </summary>
/// <remarks>
/// <see cref="HttpListener"/> cannot do this: the managed implementation's <c>Abort()</c> closes the
/// response stream first, which writes the final empty chunk, so the client sees a short body that
/// looks complete. A reset has to come from a socket we own, closed with a zero linger time.
/// Answers <c>GET /reset?size=N&amp;after=M</c>: a chunked body of nominally N pattern bytes, reset after M.
/// </remarks>
internal sealed class ResetResponder : IAsyncDisposable
{
    /// <summary>Request headers larger than this are not from our tests.</summary>
    private const int MaxRequestHead = 16 * 1024;

    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stopping = new();
    private readonly Task _acceptLoop;

    public ResetResponder()
    {
        _listener.Start();
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        _acceptLoop = Task.Run(AcceptLoopAsync);
    }

    public int Port { get; }

    public async ValueTask DisposeAsync()
    {
        if (_stopping.IsCancellationRequested)
        {
            return;
        }

        await _stopping.CancelAsync().ConfigureAwait(false);
        _listener.Stop();
        await _acceptLoop.ConfigureAwait(false);
        _stopping.Dispose();
    }

    private async Task AcceptLoopAsync()
    {
        while (!_stopping.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await _listener.AcceptSocketAsync(_stopping.Token).ConfigureAwait(false);
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException or OperationCanceledException)
            {
                return;
            }

            _ = Task.Run(() => RespondAsync(socket));
        }
    }

    private async Task RespondAsync(Socket socket)
    {
        try
        {
            string head = await ReadHeadAsync(socket).ConfigureAwait(false);
            (int size, int after) = ParseTarget(head);
            byte[] payload = Payload.Get(size);
            var reply = new StringBuilder("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
            await socket.SendAsync(Encoding.ASCII.GetBytes(reply.ToString()), SocketFlags.None, _stopping.Token).ConfigureAwait(false);
            await socket.SendAsync(Encoding.ASCII.GetBytes(after.ToString("X", CultureInfo.InvariantCulture) + "\r\n"), SocketFlags.None, _stopping.Token).ConfigureAwait(false);
            await socket.SendAsync(payload.AsMemory(0, after), SocketFlags.None, _stopping.Token).ConfigureAwait(false);
            await socket.SendAsync("\r\n"u8.ToArray(), SocketFlags.None, _stopping.Token).ConfigureAwait(false);

            // Give the client time to start reading the body, so the reset lands mid-body.
            await Task.Delay(50, _stopping.Token).ConfigureAwait(false);
        }
        catch (Exception e) when (e is SocketException or IOException or FormatException or OperationCanceledException)
        {
            // Nothing to do: the point of this responder is to end badly.
        }
        finally
        {
            socket.LingerState = new LingerOption(true, 0); // close with RST, not FIN
            socket.Close();
        }
    }

    private async Task<string> ReadHeadAsync(Socket socket)
    {
        var head = new StringBuilder();
        var buffer = new byte[1024];
        while (head.Length < MaxRequestHead && !head.ToString().Contains("\r\n\r\n", StringComparison.Ordinal))
        {
            int read = await socket.ReceiveAsync(buffer, SocketFlags.None, _stopping.Token).ConfigureAwait(false);
            if (read == 0)
            {
                break;
            }

            head.Append(Encoding.ASCII.GetString(buffer, 0, read));
        }

        return head.ToString();
    }

    private static (int Size, int After) ParseTarget(string head)
    {
        // "GET /reset?size=N&after=M HTTP/1.1"
        string target = head.Split(' ', 3) is [_, var t, _] ? t : throw new FormatException("no request line");
        var query = System.Web.HttpUtility.ParseQueryString(new Uri("http://x" + target).Query);
        int size = int.Parse(query["size"] ?? throw new FormatException("size is required"), CultureInfo.InvariantCulture);
        int after = int.Parse(query["after"] ?? "0", CultureInfo.InvariantCulture);
        if (size < 1 || size > Endpoints.MaxBodySize || after < 0 || after >= size)
        {
            throw new FormatException("size must be 1.." + Endpoints.MaxBodySize + " and after below size");
        }

        return (size, after);
    }
}
