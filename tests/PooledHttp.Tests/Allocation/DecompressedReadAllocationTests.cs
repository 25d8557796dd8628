using PooledHttp.Tests.Support;
using Xunit.Abstractions;

namespace PooledHttp.Tests.Allocation;

/// <summary>
/// What a pooled read of a gzip response costs through a client that decompresses: the handler hides the
/// length, so the read grows through the pool, and the decompressor keeps its own per-response state. Measured
/// in a client process of its own, beside the runtime's <c>GetByteArrayAsync</c> of the same response.
/// </summary>
public class DecompressedReadAllocationTests(ServerFixture fixture, ITestOutputHelper output) : IClassFixture<ServerFixture>
{
    // Measured on the 2-core machine (.NET 10.0.12, 50 downloads after the warm-up): 4,056 B per 1 MiB download and
    // 3,568 B per 16 MiB one, against 2,830 and 2,641 B for the same bodies uncompressed; the runtime's
    // GetByteArrayAsync of the same responses 1,053,701 and 16,781,311 B. The bound is the pooled read's own
    // (PooledReadAllocationTests.Bound): decompression must not make it grow with the body.

    [Theory]
    [InlineData(1024 * 1024)]
    [InlineData(16 * 1024 * 1024)]
    public async Task A_decompressed_pooled_read_stays_in_kilobytes_where_the_runtimes_read_costs_the_body(int size)
    {
        (long pooled, int pooledLength) = await ProbeProcess.MeasureAsync("pooled-gzip", fixture.Server.GzipUrl(size), iterations: 50);
        (long runtime, int runtimeLength) = await ProbeProcess.MeasureAsync("bytearray-gzip", fixture.Server.GzipUrl(size), iterations: 20);
        output.WriteLine($"gzip, {size:N0} bytes decompressed: pooled read {pooled:N0} B/op, GetByteArrayAsync {runtime:N0} B/op");

        Assert.Equal(size, pooledLength);
        Assert.Equal(size, runtimeLength);
        long bound = PooledReadAllocationTests.Bound(size);
        Assert.True(pooled <= bound, $"a decompressed pooled read of {size:N0} bytes allocated {pooled:N0} B/op, bound {bound:N0}");
        Assert.True(runtime >= size, $"GetByteArrayAsync allocated {runtime:N0} B/op for a {size:N0}-byte body: the probe did not measure what it should");
    }
}
