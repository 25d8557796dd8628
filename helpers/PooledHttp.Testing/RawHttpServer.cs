using System.Net;
using System.Net.Sockets;
using System.Text;

namespace PooledHttp.Testing;

/// <summary>
/// A loopback TCP server that answers every request with whatever bytes a test scripts, however wrong:
/// lying lengths, missing chunks, stalls, resets. HttpListener and Kestrel refuse to send most of these.
/// </summary>
public sealed class RawHttpServer : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stopping = new();
    private readonly Func<string, Socket, CancellationToken, Task> _respond;
    private readonly bool _byTarget;
    private readonly List<string> _targets = [];
    private readonly Task _accepting;

    /// <param name="respond">Given the request's method and the socket; the connection closes when it returns.</param>
    public RawHttpServer(Func<string, Socket, CancellationToken, Task> respond)
        : this(respond, byTarget: false)
    {
    }

    private RawHttpServer(Func<string, Socket, CancellationToken, Task> respond, bool byTarget)
    {
        _respond = respond;
        _byTarget = byTarget;
        _listener.Start();
        Address = new Uri($"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}/");
        _accepting = Task.Run(AcceptAsync);
    }

    /// <summary>The server's base address on loopback.</summary>
    public Uri Address { get; }

    /// <summary>The request targets (<c>/path?query</c>) received so far, in the order their heads arrived.</summary>
    public IReadOnlyList<string> Targets
    {
        get
        {
            lock (_targets)
            {
                return [.. _targets];
            }
        }
    }

    /// <summary>A server that hands <paramref name="respond"/> each request's target (<c>/path?query</c>) instead of its method.</summary>
    public static RawHttpServer Routing(Func<string, Socket, CancellationToken, Task> respond) => new(respond, byTarget: true);

    /// <summary>A server that sends <paramref name="response"/> as it is, then closes.</summary>
    public static RawHttpServer Sending(string response) => new(async (_, socket, stop) =>
        await socket.SendAsync(Encoding.ASCII.GetBytes(response), SocketFlags.None, stop).ConfigureAwait(false));

    /// <summary>A server that sends <paramref name="response"/>'s bytes as they are, then closes.</summary>
    public static RawHttpServer Sending(byte[] response) => new(async (_, socket, stop) =>
        await socket.SendAsync(response, SocketFlags.None, stop).ConfigureAwait(false));

    /// <summary>Sends <paramref name="text"/> as ASCII bytes: a scripted response's next piece.</summary>
    public static Task SendAsync(Socket socket, string text, CancellationToken stop)
        => socket.SendAsync(Encoding.ASCII.GetBytes(text), SocketFlags.None, stop).AsTask();

    /// <summary>Stops accepting and waits for the accept loop to end.</summary>
    public async ValueTask DisposeAsync()
    {
        await _stopping.CancelAsync();
        _listener.Stop();
        await _accepting;
        _stopping.Dispose();
    }

    private async Task AcceptAsync()
    {
        while (!_stopping.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await _listener.AcceptSocketAsync(_stopping.Token);
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException or OperationCanceledException)
            {
                return;
            }

            _ = Task.Run(async () =>
            {
                using (socket)
                {
                    try
                    {
                        string head = await ReadHeadAsync(socket, _stopping.Token);
                        string[] requestLine = head.Split(' ');
                        string target = requestLine.Length > 1 ? requestLine[1] : string.Empty;
                        lock (_targets)
                        {
                            _targets.Add(target);
                        }

                        await _respond(_byTarget ? target : requestLine[0], socket, _stopping.Token);
                        socket.Shutdown(SocketShutdown.Both);
                    }
                    catch (Exception e) when (e is SocketException or IOException or OperationCanceledException)
                    {
                        // the client left, or the test ended
                    }
                }
            });
        }
    }

    private static async Task<string> ReadHeadAsync(Socket socket, CancellationToken stop)
    {
        var head = new StringBuilder();
        var one = new byte[1];
        while (!head.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal) && await socket.ReceiveAsync(one, SocketFlags.None, stop) == 1)
        {
            head.Append((char)one[0]);
        }

        return head.ToString();
    }
}
