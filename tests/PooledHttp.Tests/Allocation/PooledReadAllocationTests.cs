using PooledHttp.Tests.Support;
using Xunit.Abstractions;

namespace PooledHttp.Tests.Allocation;

/// <summary>
/// What a pooled download allocates, measured in a client process of its own while the server runs
/// here, so the server's garbage is not counted. The bound comes from measurements on the 2-core
/// workshop machine (see the README) plus a margin: a constant part, and a small part per MiB of
/// body for the runtime's own read path (see <see cref="BoundBytesPerMiB"/>).
/// </summary>
public class PooledReadAllocationTests(ServerFixture fixture, ITestOutputHelper output) : IClassFixture<ServerFixture>
{
    /// <summary>Measured on the 2-core machine (.NET 10.0.12, Debug build of the helpers): 2.8 KB per
    /// download at 64 KiB and 1 MiB, 3.0 to 5.3 KB at 16 MiB, chunked or not. The margin absorbs
    /// runtime and core-count differences; a regression to a body-sized allocation (64 KiB and up)
    /// or to a pool that misses (tens of KB per download) still fails.</summary>
    private const long BoundBytesPerOperation = 8 * 1024;

    /// <summary>
    /// SocketsHttpHandler's content stream allocates a small state machine each time a read finds the
    /// socket empty and has to wait, so even a pooled read grows a little with the body: measured 2.5 to
    /// 2.8 KB at 1 MiB, 3.4 to 7.9 KB at 16 MiB and 11 to 16.7 KB at 64 MiB (Content-Length and chunked,
    /// alone or beside other tests), about 0.1 to 0.25 KB per MiB. The runtime's own
    /// <c>GetByteArrayAsync</c> shows the same growth beyond its array. 1 KiB per MiB is four times that;
    /// a body-sized allocation is still a thousand times more.
    /// </summary>
    private const long BoundBytesPerMiB = 1024;

    [Theory]
    [InlineData(64 * 1024, false)]
    [InlineData(64 * 1024, true)]
    [InlineData(1024 * 1024, false)]
    [InlineData(1024 * 1024, true)]
    [InlineData(16 * 1024 * 1024, false)]
    [InlineData(16 * 1024 * 1024, true)]
    public async Task Pooled_read_allocates_under_8_KiB_plus_1_KiB_per_MiB_of_body(int size, bool contentLength)
    {
        (long perOperation, int length) = await ProbeProcess.MeasureAsync("pooled", fixture.Server.BytesUrl(size, contentLength), iterations: 100);
        Assert.Equal(size, length);
        output.WriteLine($"pooled read, {size:N0} bytes, {(contentLength ? "Content-Length" : "chunked")}: {perOperation:N0} B/op");
        long bound = BoundBytesPerOperation + (BoundBytesPerMiB * size / (1024 * 1024));
        Assert.True(perOperation <= bound, $"pooled read of {size:N0} bytes allocated {perOperation:N0} B/op, bound {bound:N0}");
    }

    [Fact]
    public async Task The_probe_sees_a_body_sized_allocation_when_there_is_one()
    {
        // The same measurement on GetByteArrayAsync must see at least the 1 MiB array it returns:
        // proof that the probe counts what it should, so the test above can fail.
        (long perOperation, _) = await ProbeProcess.MeasureAsync("bytearray", fixture.Server.BytesUrl(1 << 20, contentLength: true), iterations: 50);
        output.WriteLine($"GetByteArrayAsync, 1 MiB, Content-Length: {perOperation:N0} B/op");
        Assert.True(perOperation >= 1 << 20, $"GetByteArrayAsync allocated only {perOperation:N0} B/op");
    }
}
