using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Workshop.Server;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Http;

public class RoundTripTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    public static TheoryData<int, bool> Sizes()
    {
        var data = new TheoryData<int, bool>();
        foreach (int size in new[] { 0, 1, 4095, 4096, 84_999, 85_000, 1 << 20, (16 << 20) + 1 })
        {
            data.Add(size, false);
            data.Add(size, true);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Sizes))]
    public async Task Pooled_read_returns_the_body_byte_for_byte(int size, bool contentLength)
    {
        var pool = new TrackingArrayPool();
        using (PooledBuffer body = await fixture.Client.GetPooledAsync(fixture.Server.BytesUrl(size, contentLength), pool: pool))
        {
            Assert.Equal(size, body.Length);
            Assert.Equal(-1, Payload.FirstMismatch(body.Span));
        }

        pool.AssertBalanced();
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_body_written_in_many_pieces_is_read_whole(bool contentLength)
    {
        var pool = new TrackingArrayPool();
        using (PooledBuffer body = await fixture.Client.GetPooledAsync(fixture.Server.BytesUrl(300_000, contentLength, writes: 7), pool: pool))
        {
            Assert.Equal(300_000, body.Length);
            Assert.Equal(-1, Payload.FirstMismatch(body.Span));
        }

        pool.AssertBalanced();
    }

    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    [InlineData(4096)]
    public async Task Short_reads_never_pass_for_a_whole_body(int maxPerRead)
    {
        var pool = new TrackingArrayPool();
        var data = new byte[10_000];
        Payload.Fill(data);
        var known = new TrickleStream(data, maxPerRead);
        var unknown = new TrickleStream(data, maxPerRead);

        using (PooledBuffer a = await PooledBodyReader.ReadAsync(known, data.Length, pool: pool))
        using (PooledBuffer b = await PooledBodyReader.ReadAsync(unknown, null, pool: pool))
        {
            Assert.True(a.Span.SequenceEqual(data));
            Assert.True(b.Span.SequenceEqual(data));
        }

        Assert.True(known.Reads >= data.Length / maxPerRead);
        pool.AssertBalanced();
    }

    [Fact]
    public async Task Exactly_at_the_limit_is_accepted()
    {
        var pool = new TrackingArrayPool();
        using (PooledBuffer body = await fixture.Client.GetPooledAsync(fixture.Server.BytesUrl(50_000), maxBytes: 50_000, pool: pool))
        {
            Assert.Equal(50_000, body.Length);
        }

        pool.AssertBalanced();
    }

    [Fact]
    public async Task The_connection_is_released_before_the_lease_is_disposed()
    {
        // One connection only: if the pooled read held the response open, the second request would wait forever.
        using var handler = new SocketsHttpHandler { MaxConnectionsPerServer = 1 };
        using var client = new HttpClient(handler) { Timeout = TimeSpan.FromSeconds(20) };
        using PooledBuffer first = await client.GetPooledAsync(fixture.Server.BytesUrl(100_000));
        using PooledBuffer second = await client.GetPooledAsync(fixture.Server.BytesUrl(100_000));
        Assert.Equal(first.Length, second.Length);
    }
}
