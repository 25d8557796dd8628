using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Load;
using PooledHttp.Workshop.Server;
using PooledHttp.Workshop.Watching;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Watching;

/// <summary>
/// Chapter 09's live view: a diagnostics client attached to the load probe's process reads the runtime's
/// counters and the ArrayPool events while it runs, and what it reads agrees with what the process says of itself.
/// </summary>
[Collection(LoadProbeRuns.Name)]
public class ProcessWatchTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    [Fact]
    public async Task Watching_the_naive_load_sees_its_allocations_and_the_pooled_load_far_fewer()
    {
        LoadProbe probe = await LoadProbe.BuildAsync();
        int updates = 0;

        (LoadResult naive, IReadOnlyList<CounterSecond> naiveSeconds) = await probe.RunWatchedAsync(LoadStrategies.Naive, fixture.Server, 1024 * 1024, contentLength: false, concurrency: 8, downloads: 400, Pace.Network, _ => updates++);
        (LoadResult pooled, IReadOnlyList<CounterSecond> pooledSeconds) = await probe.RunWatchedAsync(LoadStrategies.Pooled, fixture.Server, 1024 * 1024, contentLength: false, concurrency: 8, downloads: 400, Pace.Network, null);

        Assert.True(naiveSeconds.Count >= 2, $"{naiveSeconds.Count} intervals watched over {naive.ElapsedMs:N0} ms of load");
        Assert.True(updates >= naiveSeconds.Count - 1, $"{updates} updates for {naiveSeconds.Count} intervals");
        double naiveSeen = naiveSeconds.Sum(s => s.AllocatedBytes), pooledSeen = pooledSeconds.Sum(s => s.AllocatedBytes);
        // The counters cover the whole process (start-up and warm-up too), so they see at least what the probe measured.
        Assert.True(naiveSeen >= naive.AllocatedBytes * 0.9, $"counters saw {naiveSeen:N0} B, the probe measured {naive.AllocatedBytes:N0} B");
        Assert.True(pooledSeen < naiveSeen / 5, $"pooled {pooledSeen:N0} B against naive {naiveSeen:N0} B");
        // The runtime's own pools lend to the handler in both: the event provider was on.
        Assert.True(naiveSeconds.Sum(s => s.PoolRents) + pooledSeconds.Sum(s => s.PoolRents) > 0, "no ArrayPool event seen");

        // The library's meter: the naive read rents no body; the pooled read's pool counted its rents, and once warm a
        // free array served most of them (8 in flight, 400 downloads). The last interval before the probe exits is
        // never published, so the counts are at most the downloads, not equal to them.
        Assert.Equal(0, naiveSeconds.Sum(s => s.BodyPoolHits + s.BodyPoolMisses));
        long hits = pooledSeconds.Sum(s => s.BodyPoolHits), misses = pooledSeconds.Sum(s => s.BodyPoolMisses);
        Assert.True(hits > misses && misses > 0, $"body pool: {hits} hits, {misses} misses");
    }

    [Fact]
    public async Task A_process_that_is_not_there_is_named_in_the_error()
    {
        TimeoutException error = await Assert.ThrowsAsync<TimeoutException>(() => ProcessWatch.WatchAsync(int.MaxValue - 7, null, CancellationToken.None));
        Assert.Contains((int.MaxValue - 7).ToString(System.Globalization.CultureInfo.InvariantCulture), error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void The_shell_commands_name_the_same_providers()
    {
        Assert.Equal("dotnet-counters monitor -p 42 --counters System.Runtime[alloc-rate,gen-2-gc-count,loh-size,total-pause-time-by-gc],PooledHttp", ProcessWatch.CountersCommand(42));
        Assert.Equal("dotnet-trace collect -p 42 --providers System.Buffers.ArrayPoolEventSource:0:5", ProcessWatch.TraceCommand(42));
    }
}
