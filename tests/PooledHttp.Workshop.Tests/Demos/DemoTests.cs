using System.Buffers;
using PooledHttp.Workshop.Demos;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Demos;

/// <summary>The demonstrations the chapters print must show what their prose claims.</summary>
public class DemoTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private const int OneMiB = 1024 * 1024;

    [Fact]
    public async Task A_single_read_of_a_body_sent_in_pieces_is_partial_and_the_helpers_read_is_whole()
    {
        Uri url = fixture.Server.BytesUrl(OneMiB, contentLength: true, writes: 16);

        ReadOutcome once = await KnownLengthPitfall.ReadOnceAsync(fixture.Client, url);
        ReadOutcome whole = await KnownLengthPitfall.ReadWholeAsync(fixture.Client, url);

        Assert.Equal(OneMiB, once.DeclaredLength);
        Assert.InRange(once.BytesRead, 1, OneMiB - 1);
        Assert.Equal(-1, once.FirstMismatch); // what it got is right; it just is not everything
        Assert.False(once.IsWhole);
        Assert.Contains("missing", once.ToString(), StringComparison.Ordinal);
        Assert.True(whole.IsWhole, whole.ToString());
    }

    [Fact]
    public async Task The_single_read_refuses_a_body_without_a_length()
    {
        InvalidOperationException error = await Assert.ThrowsAsync<InvalidOperationException>(
            () => KnownLengthPitfall.ReadOnceAsync(fixture.Client, fixture.Server.BytesUrl(1000)));
        Assert.Contains("Content-Length", error.Message, StringComparison.Ordinal);
    }

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
