using System.Net;
using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Tests.Support;
using static PooledHttp.Tests.Http.DifferentialTests;

namespace PooledHttp.Tests.Http;

/// <summary>
/// The differential corpus's well-framed half over HTTP/2 (h2c on loopback, Kestrel), through every door,
/// against the runtime's read of the same response on the same client. Kestrel frames every response
/// correctly, so the ill-framed half stays with the raw-socket server over HTTP/1.1.
/// </summary>
public class Http2DifferentialTests : IAsyncLifetime
{
    private H2cServer _server = null!;

    public static TheoryData<string, string, Door> Corpus()
    {
        (string Path, string Method)[] cases =
        [
            ("bytes?size=100000&length=true", "GET"),
            ("bytes?size=100000", "GET"),
            ("bytes?size=0&length=true", "GET"),
            ("bytes?size=100000&length=true", "HEAD"),
            ("status?code=204", "GET"),
            ("status?code=304&length=5", "GET"),
            ("status?code=500", "GET"),
        ];
        var data = new TheoryData<string, string, Door>();
        foreach ((string path, string method) in cases)
        {
            foreach (Door door in Enum.GetValues<Door>())
            {
                if ((door == Door.GetPooled && method != "GET") || (door == Door.RawReader && (method != "GET" || path.StartsWith("status", StringComparison.Ordinal))))
                {
                    continue;
                }

                data.Add(path, method, door);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Corpus))]
    public async Task Pooled_read_matches_the_runtime_over_h2c(string path, string method, Door door)
    {
        using HttpClient client = H2cServer.Client();
        var address = new Uri(_server.Address, path);
        (byte[]? runtimeBytes, Exception? runtimeError) = await RuntimeReadAsync(client, address, method: method);
        var pool = new TrackingArrayPool();
        (byte[]? pooledBytes, Exception? pooledError) = await ThroughAsync(door, client, address, method, pool);

        Assert.True(runtimeError is null, $"the runtime failed: {runtimeError}");
        int status = path.StartsWith("status?code=", StringComparison.Ordinal) ? int.Parse(path.AsSpan(12, 3), System.Globalization.CultureInfo.InvariantCulture) : 200;
        if (door is Door.GetPooled or Door.SendPooled && status is < 200 or > 299)
        {
            Assert.Equal((HttpStatusCode)status, Assert.IsType<HttpRequestException>(pooledError).StatusCode);
        }
        else
        {
            Assert.True(pooledError is null, $"{method} {path} through {door} over h2c failed: {pooledError}");
            Assert.Equal(runtimeBytes, pooledBytes);
        }

        pool.AssertBalanced($"{method} {path} through {door}");
    }

    [Fact]
    public async Task GetPooledAsync_speaks_the_version_the_client_was_set_to_as_GetByteArrayAsync_does()
    {
        // The server speaks only HTTP/2 by prior knowledge. A GET built without the client's defaults goes out as
        // HTTP/1.1 and gets 400 (Bad Request); GetByteArrayAsync on the same client reads the body over HTTP/2.
        using HttpClient client = H2cServer.Client();
        var address = new Uri(_server.Address, "bytes?size=100000&length=true");
        byte[] expected = await client.GetByteArrayAsync(address);
        using PooledBuffer body = await client.GetPooledAsync(address);
        Assert.Equal(100_000, body.Length);
        Assert.Equal(expected, body.ToArray());
    }

    public async Task InitializeAsync() => _server = await H2cServer.StartAsync();

    public async Task DisposeAsync() => await _server.DisposeAsync();
}
