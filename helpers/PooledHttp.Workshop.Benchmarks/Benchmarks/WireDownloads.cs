using BenchmarkDotNet.Attributes;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 09, section 5: <c>GetByteArrayAsync</c> against the pooled read when the body is gzip-compressed
/// (no length once decompressed), comes over TLS, or comes over HTTP/2, at 1 MiB and 16 MiB.
/// </summary>
public class WireDownloads : IDisposable
{
    private HttpClient _client = null!;
    private Uri _url = null!;

    /// <summary>What the body crosses.</summary>
    [Params(Wire.Gzip, Wire.Https, Wire.Http2, Wire.Http2FixedWindow)]
    public Wire Wire { get; set; }

    /// <summary>The body size, decompressed.</summary>
    [Params(1024 * 1024, 16 * 1024 * 1024)]
    public int Size { get; set; }

    /// <summary><c>GetByteArrayAsync</c>: a new array of the body's size.</summary>
    [Benchmark(Baseline = true)]
    public Task<int> GetByteArrayAsync() => Downloads.GetByteArrayAsync(_client, _url);

    /// <summary>The pooled read.</summary>
    [Benchmark]
    public Task<int> PooledRead() => Downloads.PooledReadAsync(_client, _url);

    /// <summary>
    /// The runtime's switch for HTTP/2's dynamic window sizing (its environment variable is
    /// <c>DOTNET_SYSTEM_NET_HTTP_SOCKETSHTTPHANDLER_HTTP2FLOWCONTROL_DISABLEDYNAMICWINDOWSIZING=1</c>). It applies to
    /// the whole process and is read once, so it is set before the first request: each case has a process of its own.
    /// </summary>
    public const string FixedWindowSwitch = "System.Net.SocketsHttpHandler.Http2FlowControl.DisableDynamicWindowSizing";

    /// <summary>Creates the client for <see cref="Wire"/> and finds its server.</summary>
    [GlobalSetup]
    public void Setup()
    {
        if (Wire == Wire.Http2FixedWindow)
        {
            AppContext.SetSwitch(FixedWindowSwitch, true);
        }

        byte[] certificate = Wire == Wire.Https ? Convert.FromBase64String(RunContext.Require(RunContext.Current.HttpsCertificate, "Chapter 09's certificate", "Measure.Run with the WireServer's Context")) : [];
        _client = WireClients.CreateClient(Wire, certificate);
        _url = Wire switch
        {
            Wire.Gzip => new Uri(BenchmarkServer.Address, ServerPaths.Gzip(Size)),
            Wire.Https => new Uri(RunContext.Require(RunContext.Current.Https, "Chapter 09's HTTPS address", "Measure.Run with the WireServer's Context"), ServerPaths.Bytes(Size, contentLength: true)),
            _ => new Uri(RunContext.Require(RunContext.Current.WireHttp2, "Chapter 09's HTTP/2 address", "Measure.Run with the WireServer's Context"), ServerPaths.Bytes(Size, contentLength: true)),
        };
    }

    /// <summary>Disposes the client.</summary>
    [GlobalCleanup]
    public void Dispose()
    {
        _client?.Dispose();
        GC.SuppressFinalize(this);
    }
}
