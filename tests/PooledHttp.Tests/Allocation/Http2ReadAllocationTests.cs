using PooledHttp.Tests.Support;
using Xunit.Abstractions;

namespace PooledHttp.Tests.Allocation;

/// <summary>
/// What a pooled read of a 16 MiB body allocates over HTTP/2 (h2c on loopback), measured in a client process of its
/// own. Over HTTP/2 the handler copies the body into a receive buffer of 16 KiB blocks from
/// <c>ArrayPool&lt;byte&gt;.Shared</c> before the read sees it; with the stream's window capped at 1 MiB those blocks
/// fit what that pool keeps, and the read stays in tens of KiB. With the defaults they do not (docs/measurements.md,
/// "HTTP/2 bodies").
/// </summary>
public class Http2ReadAllocationTests(ITestOutputHelper output) : IAsyncLifetime
{
    private const int Size = 16 * 1024 * 1024;
    private const string MaxStreamWindow = "DOTNET_SYSTEM_NET_HTTP_SOCKETSHTTPHANDLER_FLOWCONTROL_MAXSTREAMWINDOWSIZE";

    /// <summary>
    /// Measured with the window capped at 1 MiB (2-core machine, .NET 10.0.12): 39.7 to 47.2 KiB per 16 MiB download in
    /// nine runs of tools/Experiments/Http2Window (Release), 47.0 to 51.2 KiB in three runs of this test (Debug); with the defaults,
    /// 3.74 to 10.56 MiB. 8 KiB plus 6 KiB per MiB (104 KiB here) leaves room for a few 16 KiB blocks the shared pool
    /// misses under load. The cap fits that pool on two cores or more (32 blocks per core); on one core it would not.
    /// </summary>
    private const long Bound = (8 * 1024) + (6 * 1024 * (Size / (1024 * 1024)));

    private H2cServer _server = null!;

    public async Task InitializeAsync() => _server = await H2cServer.StartAsync();

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public async Task With_the_stream_window_capped_at_1_MiB_a_16_MiB_pooled_read_over_h2c_stays_in_tens_of_KiB()
    {
        Uri[] url = [new(_server.Address, $"bytes?size={Size}&length=true")];
        var capped = new Dictionary<string, string> { [MaxStreamWindow] = "1048576" };
        ProbeProcess.Measurement windowed = await ProbeProcess.MeasureAsync("pooled-h2", url, iterations: 50, warmups: 100, parallel: 1, capped);
        ProbeProcess.Measurement defaults = await ProbeProcess.MeasureAsync("pooled-h2", url, iterations: 20, warmups: 40, parallel: 1);
        output.WriteLine($"16 MiB over h2c: {windowed.BytesPerOperation:N0} B per download with the window capped at 1 MiB, {defaults.BytesPerOperation:N0} B with the defaults; bound {Bound:N0} B");

        Assert.Equal(Size, windowed.BodyLength);
        Assert.True(windowed.BytesPerOperation <= Bound, $"the pooled read allocated {windowed.BytesPerOperation:N0} B per 16 MiB download with the window capped at 1 MiB, bound {Bound:N0}");
        Assert.True(defaults.BytesPerOperation > Bound, $"with the defaults it allocated only {defaults.BytesPerOperation:N0} B: this test could not fail");
    }
}
