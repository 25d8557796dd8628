using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace PooledHttp.Tests.Support;

/// <summary>
/// A loopback server that speaks just enough HTTP/2 without TLS (prior knowledge) to answer every request with a
/// status 200, a Content-Length and a body it is told to send, whether or not they agree. Kestrel refuses to send a
/// body that does not match its Content-Length; this server frames one on purpose.
/// </summary>
internal sealed class RawH2cServer : IAsyncDisposable
{
    private const byte Data = 0x0, Headers = 0x1, Settings = 0x4, Ping = 0x6;
    private const byte EndStream = 0x1, Ack = 0x1, EndHeaders = 0x4;
    private const int MaxFrame = 16 * 1024; // the smallest SETTINGS_MAX_FRAME_SIZE a peer must accept

    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stopping = new();
    private readonly long _declaredLength;
    private readonly byte[] _body;
    private readonly Task _accepting;

    /// <param name="declaredLength">The Content-Length every response declares.</param>
    /// <param name="body">The bytes every response sends, in DATA frames, the last one ending the stream.</param>
    public RawH2cServer(long declaredLength, byte[] body)
    {
        _declaredLength = declaredLength;
        _body = body;
        _listener.Start();
        Address = new Uri($"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}/");
        _accepting = Task.Run(AcceptAsync);
    }

    public Uri Address { get; }

    public async ValueTask DisposeAsync()
    {
        await _stopping.CancelAsync();
        _listener.Stop();
        await _accepting;
        _stopping.Dispose();
    }

    private async Task AcceptAsync()
    {
        var connections = new List<Task>();
        while (!_stopping.IsCancellationRequested)
        {
            try
            {
                Socket socket = await _listener.AcceptSocketAsync(_stopping.Token);
                connections.Add(ServeAsync(socket, _stopping.Token));
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException or OperationCanceledException)
            {
                break;
            }
        }

        await Task.WhenAll(connections);
    }

    private async Task ServeAsync(Socket socket, CancellationToken stop)
    {
        using (socket)
        await using (var stream = new NetworkStream(socket, ownsSocket: false))
        {
            try
            {
                byte[] preface = new byte[24];
                await stream.ReadExactlyAsync(preface, stop);
                await WriteFrameAsync(stream, Settings, 0, 0, ReadOnlyMemory<byte>.Empty, stop);
                byte[] header = new byte[9];
                while (true)
                {
                    await stream.ReadExactlyAsync(header, stop);
                    int length = (header[0] << 16) | (header[1] << 8) | header[2];
                    byte type = header[3], flags = header[4];
                    int streamId = BinaryPrimitives.ReadInt32BigEndian(header.AsSpan(5)) & int.MaxValue;
                    byte[] payload = new byte[length];
                    await stream.ReadExactlyAsync(payload, stop);
                    if (type == Settings && (flags & Ack) == 0)
                    {
                        await WriteFrameAsync(stream, Settings, Ack, 0, ReadOnlyMemory<byte>.Empty, stop);
                    }
                    else if (type == Ping && (flags & Ack) == 0)
                    {
                        await WriteFrameAsync(stream, Ping, Ack, 0, payload, stop);
                    }
                    else if (type == Headers)
                    {
                        await RespondAsync(stream, streamId, stop);
                    }
                }
            }
            catch (Exception e) when (e is IOException or EndOfStreamException or OperationCanceledException or SocketException)
            {
                // The client closed the connection, or the server is stopping.
            }
        }
    }

    private async Task RespondAsync(NetworkStream stream, int streamId, CancellationToken stop)
    {
        // HPACK (RFC 7541): ":status: 200" is static entry 8; content-length is a literal without indexing whose name is static entry 28.
        byte[] length = Encoding.ASCII.GetBytes(_declaredLength.ToString(System.Globalization.CultureInfo.InvariantCulture));
        byte[] block = [0x88, 0x0F, 28 - 15, (byte)length.Length, .. length];
        await WriteFrameAsync(stream, Headers, EndHeaders, streamId, block, stop);
        int sent = 0;
        do
        {
            int size = Math.Min(MaxFrame, _body.Length - sent);
            await WriteFrameAsync(stream, Data, sent + size == _body.Length ? EndStream : (byte)0, streamId, _body.AsMemory(sent, size), stop);
            sent += size;
        }
        while (sent < _body.Length);
    }

    private static async Task WriteFrameAsync(NetworkStream stream, byte type, byte flags, int streamId, ReadOnlyMemory<byte> payload, CancellationToken stop)
    {
        byte[] header = new byte[9];
        header[0] = (byte)(payload.Length >> 16);
        header[1] = (byte)(payload.Length >> 8);
        header[2] = (byte)payload.Length;
        header[3] = type;
        header[4] = flags;
        BinaryPrimitives.WriteInt32BigEndian(header.AsSpan(5), streamId);
        await stream.WriteAsync(header, stop);
        await stream.WriteAsync(payload, stop);
    }
}
