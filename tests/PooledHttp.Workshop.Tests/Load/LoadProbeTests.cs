using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Load;
using PooledHttp.Workshop.Server;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Load;

[Collection(LoadProbeRuns.Name)]
public class LoadProbeTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    [Fact]
    public async Task The_probe_receives_every_body_and_the_pooled_read_allocates_far_less_than_the_naive_one()
    {
        const int Size = 256 * 1024, Downloads = 8;
        LoadProbe probe = await LoadProbe.BuildAsync();

        LoadResult naive = await probe.RunAsync(LoadStrategies.Naive, fixture.Server, Size, contentLength: true, concurrency: 2, downloads: Downloads, Pace.Network);
        LoadResult pooled = await probe.RunAsync(LoadStrategies.Pooled, fixture.Server, Size, contentLength: true, concurrency: 2, downloads: Downloads, Pace.Network);

        foreach (LoadResult result in new[] { naive, pooled })
        {
            Assert.Equal((long)Size * Downloads, result.BytesReceived);
            Assert.Equal(2, result.Concurrency);
            Assert.Equal(2, result.PeakOverlap); // paced bodies: both downloads were mid-transfer together
            Assert.True(result.ElapsedMs > 0 && result.PeakWorkingSetBytes > 0);
            Assert.True(result.Gen0 >= 0 && result.Gen1 >= 0 && result.Gen2 >= 0 && result.GcPauseMs >= 0);
        }

        // Naive: two bodies per download (measured 2.0x on .NET 10); pooled: a few KiB per download.
        Assert.True(naive.AllocatedBytes >= (long)Size * Downloads, $"naive allocated {naive.AllocatedBytes:N0}");
        Assert.True(pooled.AllocatedBytes < naive.AllocatedBytes / 20, $"pooled {pooled.AllocatedBytes:N0} against naive {naive.AllocatedBytes:N0}");
        Assert.Contains("<td>pooled</td>", LoadProbe.ToHtml([naive, pooled]), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_bad_argument_fails_with_the_probes_usage_in_the_message()
    {
        LoadProbe probe = await LoadProbe.BuildAsync();
        InvalidOperationException error = await Assert.ThrowsAsync<InvalidOperationException>(() => probe.RunAsync("sideways", fixture.Server, 10, contentLength: true, 1, 1));
        Assert.Contains("usage: LoadProbe", error.Message, StringComparison.Ordinal);
    }
}
