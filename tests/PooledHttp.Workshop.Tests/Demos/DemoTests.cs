using System.Buffers;
using PooledHttp.Workshop.Demos;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Demos;

/// <summary>The demonstrations the chapters print must show what their prose claims.</summary>
public class DemoTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private const int OneMiB = 1024 * 1024;

    [Fact]
    public async Task An_undisposed_streamed_response_starves_a_pool_of_one_until_it_is_disposed()
    {
        StarvationOutcome outcome = await ConnectionStarvation.DemonstrateAsync(fixture.Server.BytesUrl(OneMiB), TimeSpan.FromMilliseconds(500));

        Assert.True(outcome.SecondWasStarved);
        Assert.Equal(200, outcome.ThirdStatus);
    }

    [Fact]
    public void Pool_events_report_allocations_exhaustion_and_drops_of_one_pool_only()
    {
        ArrayPool<byte> pool = ArrayPool<byte>.Create(maxArrayLength: 1024, maxArraysPerBucket: 1);
        ArrayPool<byte> other = ArrayPool<byte>.Create();
        using ArrayPoolEvents events = ArrayPoolEvents.Of(pool);

        byte[] a = pool.Rent(1024);     // allocated to be pooled
        byte[] b = pool.Rent(1024);     // the bucket's only array is out: exhausted
        pool.Return(a);
        pool.Return(b);                 // the bucket is full: dropped
        pool.Return(pool.Rent(4096));   // past the maximum: allocated, then dropped
        other.Return(other.Rent(100));  // another pool: not reported

        Assert.Equal(
            [
                new ArrayPoolEvent("BufferAllocated", 1024, "allocated to be pooled"),
                new ArrayPoolEvent("BufferAllocated", 1024, "allocated: the pool had none left of that size"),
                new ArrayPoolEvent("BufferDropped", 1024, "dropped on return: the pool was full"),
                new ArrayPoolEvent("BufferAllocated", 4096, "allocated: larger than the pool keeps"),
                new ArrayPoolEvent("BufferDropped", 4096, "dropped on return: larger than the pool keeps"),
            ],
            events.Events);
    }
}
