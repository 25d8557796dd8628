using System.Text;
using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Http;

/// <summary>
/// A body that does not match its Content-Length, through <c>SocketsHttpHandler</c>: over HTTP/1.1 the handler reads
/// only the declared length, so an excess never reaches a reader; over HTTP/2 (h2c here) the handler checks DATA frames
/// against the Content-Length neither way, so the runtime's <c>GetByteArrayAsync</c> returns whatever came, and the
/// pooled read is what refuses it.
/// </summary>
public class ContentLengthMismatchTests
{
    [Theory]
    [InlineData(5, 10)]
    [InlineData(20_000, 40_000)] // past the declared length in a later DATA frame
    public async Task Over_h2c_a_body_longer_than_its_Content_Length_reaches_the_reader_and_the_pooled_read_refuses_it(int declared, int sent)
    {
        await using var server = new RawH2cServer(declared, new byte[sent]);
        using HttpClient client = H2cServer.Client();
        var pool = new TrackingArrayPool();

        Assert.Equal(sent, (await client.GetByteArrayAsync(server.Address)).Length);
        var error = await Assert.ThrowsAsync<HttpRequestException>(async () => await client.GetPooledAsync(server.Address, pool: pool));
        Assert.Equal(HttpRequestError.InvalidResponse, error.HttpRequestError);
        pool.AssertBalanced();
    }

    [Theory]
    [InlineData(10, 5)]
    [InlineData(40_000, 20_000)]
    public async Task Over_h2c_a_body_shorter_than_its_Content_Length_passes_the_runtime_and_not_the_pooled_read(int declared, int sent)
    {
        await using var server = new RawH2cServer(declared, new byte[sent]);
        using HttpClient client = H2cServer.Client();
        var pool = new TrackingArrayPool();

        Assert.Equal(sent, (await client.GetByteArrayAsync(server.Address)).Length);
        var error = await Assert.ThrowsAsync<HttpRequestException>(async () => await client.GetPooledAsync(server.Address, pool: pool));
        Assert.Equal(HttpRequestError.ResponseEnded, error.HttpRequestError);
        pool.AssertBalanced();
    }

    [Fact]
    public async Task Over_HTTP_1_1_the_handler_stops_at_the_Content_Length_so_no_reader_sees_the_excess()
    {
        await using var server = RawHttpServer.Sending("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabcdefghij");
        using var client = new HttpClient();
        var pool = new TrackingArrayPool();

        Assert.Equal("abcde", Encoding.ASCII.GetString(await client.GetByteArrayAsync(server.Address)));
        using (PooledBuffer body = await client.GetPooledAsync(server.Address, pool: pool))
        {
            Assert.Equal("abcde", Encoding.ASCII.GetString(body.Span));
        }

        pool.AssertBalanced();
    }
}
