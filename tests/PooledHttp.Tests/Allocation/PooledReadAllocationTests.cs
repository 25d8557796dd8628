using PooledHttp.Buffers;
using PooledHttp.Workshop.Server;
using PooledHttp.Tests.Support;
using Xunit.Abstractions;

namespace PooledHttp.Tests.Allocation;

/// <summary>
/// What a pooled download allocates, measured in a client process of its own while the server runs
/// here, so the server's garbage is not counted. The bound comes from measurements on the 2-core
/// workshop machine (docs/measurements.md, "The allocation tests' bounds") plus a margin: a constant part, and a small part per MiB of
/// body for the runtime's own read path (see <see cref="BoundBytesPerMiB"/>).
/// </summary>
public class PooledReadAllocationTests(ServerFixture fixture, ITestOutputHelper output) : IClassFixture<ServerFixture>
{
    /// <summary>Measured on the 2-core machine (.NET 10.0.12, Release build of the helpers): 2.3 to 2.6 KiB per
    /// download at 64 KiB and 1 MiB, 2.3 to 3.7 KiB at 16 MiB, chunked or not (the Debug build: 2.8 to 3.4 KiB). The margin absorbs
    /// runtime and core-count differences; a regression to a body-sized allocation (64 KiB and up)
    /// or to a pool that misses (tens of KiB per download) still fails.</summary>
    internal const long BoundBytesPerOperation = 8 * 1024;

    /// <summary>
    /// SocketsHttpHandler's content stream allocates a small state machine each time a read finds the
    /// socket empty and has to wait, so even a pooled read grows a little with the body: measured 2.5 to
    /// 2.8 KiB at 1 MiB, 3.4 to 7.9 KiB at 16 MiB and 11 to 16.7 KiB at 64 MiB (Content-Length and chunked,
    /// alone or beside other tests), about 0.1 to 0.25 KiB per MiB. The runtime's own
    /// <c>GetByteArrayAsync</c> shows the same growth beyond its array. 1 KiB per MiB is four times that;
    /// a body-sized allocation is still a thousand times more.
    /// </summary>
    internal const long BoundBytesPerMiB = 1024;

    /// <summary>The most a pooled read of <paramref name="size"/> bytes may allocate: the constant part and the part per MiB.</summary>
    internal static long Bound(long size) => BoundBytesPerOperation + (BoundBytesPerMiB * size / (1024 * 1024));

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
        long bound = Bound(size);
        Assert.True(perOperation <= bound, $"pooled read of {size:N0} bytes allocated {perOperation:N0} B/op, bound {bound:N0}");
    }

    [Fact]
    public async Task A_sweep_of_every_size_to_the_limit_fits_the_body_pool_budget()
    {
        // One download at a time, 64 KiB to 64 MiB, both framings: the reads rent and grow through every
        // power of two up to 64 MiB, and BodyPool's 256 MiB budget must keep them all. A size it could not
        // keep would cost a fresh array of 64 KiB to 64 MiB on every round; the bound is the per-download
        // bound above, summed.
        int[] sizes = [64 * 1024, 1024 * 1024, 16 * 1024 * 1024, 64 * 1024 * 1024];
        Uri[] urls = [.. sizes.SelectMany(size => new[] { fixture.Server.BytesUrl(size), fixture.Server.BytesUrl(size, contentLength: true) })];
        ProbeProcess.Measurement m = await ProbeProcess.MeasureAsync("pooled", urls, iterations: 4, warmups: 2, parallel: 1);

        long bound = sizes.Sum(size => 2 * Bound(size));
        output.WriteLine($"sweep of {urls.Length} downloads ({m.BodyLength:N0} body bytes): {m.BytesPerOperation:N0} B per sweep, bound {bound:N0}; heap after: {m.HeapAfter:N0} B");
        Assert.Equal(2L * sizes.Sum(size => (long)size), m.BodyLength);
        Assert.True(m.BytesPerOperation <= bound, $"a sweep allocated {m.BytesPerOperation:N0} B, bound {bound:N0}");
    }

    [Fact]
    public async Task Many_large_downloads_at_once_leave_at_most_the_budget_in_the_pool()
    {
        // Six 64 MiB chunked downloads at once, paced so that they really overlap: 384 MiB of bodies, more than
        // the 256 MiB budget. A pool with no budget keeps every array it made for the life of the process. The
        // heap after a full collection holds what the pool kept plus the probe's own small change.
        Uri[] url = [fixture.Server.PacedBytesUrl(64 * 1024 * 1024, contentLength: false, Pace.Network)];
        fixture.Server.BodiesInFlight.ResetPeak();
        ProbeProcess.Measurement bounded = await ProbeProcess.MeasureAsync("pooled", url, iterations: 2, warmups: 2, parallel: 6);
        ProbeProcess.Measurement unbounded = await ProbeProcess.MeasureAsync("pooled-no-budget", url, iterations: 2, warmups: 2, parallel: 6);
        int overlap = fixture.Server.BodiesInFlight.ResetPeak();
        output.WriteLine($"6 x 64 MiB at once (peak overlap {overlap}), heap after: {bounded.HeapAfter:N0} B with the budget, {unbounded.HeapAfter:N0} B without; allocated per round {bounded.BytesPerOperation:N0} B and {unbounded.BytesPerOperation:N0} B");

        const long slack = 16 * 1024 * 1024; // the runtime's and the probe's own objects, far under one 64 MiB array
        Assert.True(overlap >= 5, $"only {overlap} of the 6 bodies were in flight at once");
        Assert.True(bounded.HeapAfter <= BodyPool.MaxRetainedBytes + slack, $"heap after {bounded.HeapAfter:N0} B, budget {BodyPool.MaxRetainedBytes:N0} B");
        Assert.True(unbounded.HeapAfter > BodyPool.MaxRetainedBytes + slack, $"without a budget the pool should keep every 64 MiB array, the heap was {unbounded.HeapAfter:N0} B: the probe did not measure what it should");
    }

    /// <summary>
    /// Measured with the Release build of the probe and the library that <c>dotnet test -c Release</c> runs (2-core
    /// machine, .NET 10.0.12, the workshop's tests running beside it): 64 paced 1 MiB downloads at once, 4.7 KiB per
    /// download with a Content-Length and 4.8 KiB chunked on the default pool; 901 to 1,109 KiB on a pool of four
    /// arrays per size (the Debug build measured 4.4 KiB chunked and 5.2 KiB with a Content-Length, and 614 to 1,017 KiB). Missing the pool for one
    /// 1 MiB body per round of 64 would add 16 KiB per download, so the bound catches a pool that misses at all.
    /// </summary>
    private const long BoundUnderLoad = 16 * 1024;

    /// <summary>
    /// Rounds of 64 before the measured ones. A chunked body grows through four sizes, and how many bodies hold an
    /// array of one size at the same moment depends on scheduling: a measured round that reaches a peak no warm-up
    /// round reached makes the pool allocate the arrays it lacked, once. With four warm-up rounds and eight measured,
    /// a machine whose two cores were busy with other work measured 15.6 and 18.2 KiB per download, chunked, from a
    /// handful of such arrays; sixteen of each leave more chances to reach the peak before measuring and spread a late
    /// one over twice the downloads.
    /// </summary>
    private const int WarmUpRounds = 16;

    /// <summary>Measured rounds of 64 downloads each.</summary>
    private const int Rounds = 16;

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task Sixty_four_overlapping_downloads_of_1_MiB_allocate_no_body_on_the_default_pool(bool contentLength)
    {
        // Each body is sent in 16 writes 2 ms apart, so the 64 downloads of a round are really in flight
        // together; the server counts how many it was writing at once.
        Uri[] url = [fixture.Server.PacedBytesUrl(1024 * 1024, contentLength, Pace.Network)];
        fixture.Server.BodiesInFlight.ResetPeak();
        ProbeProcess.Measurement pooled = await ProbeProcess.MeasureAsync("pooled", url, iterations: Rounds, warmups: WarmUpRounds, parallel: 64);
        int overlap = fixture.Server.BodiesInFlight.ResetPeak();
        ProbeProcess.Measurement fourPerSize = await ProbeProcess.MeasureAsync("pooled-4-per-size", url, iterations: Rounds, warmups: WarmUpRounds, parallel: 64);
        double perDownload = pooled.BytesPerOperation / 64.0, before = fourPerSize.BytesPerOperation / 64.0;
        output.WriteLine($"64 paced 1 MiB downloads at once ({(contentLength ? "Content-Length" : "chunked")}), peak overlap {overlap}: {perDownload:N0} B per download on the default pool, {before:N0} B on four arrays per size");

        Assert.Equal(64L * 1024 * 1024, pooled.BodyLength);
        Assert.True(overlap >= 48, $"only {overlap} bodies were in flight at once: the load did not overlap");
        Assert.True(perDownload <= BoundUnderLoad, $"the default pool allocated {perDownload:N0} B per download under load, bound {BoundUnderLoad:N0}");
        Assert.True(before > BoundUnderLoad, $"four arrays per size allocated only {before:N0} B per download: this test could not fail");
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
