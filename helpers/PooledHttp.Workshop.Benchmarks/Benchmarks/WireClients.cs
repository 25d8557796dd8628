using System.Net;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>Chapter 09, section 5: a client for each <see cref="Wire"/>, set up as a service would set it up.</summary>
public static class WireClients
{
    /// <summary>A client that decompresses gzip, one that trusts <paramref name="certificate"/> besides what the machine trusts (<see cref="PinnedCertificate.Handler"/>), or one that speaks HTTP/2 only.</summary>
    public static HttpClient CreateClient(Wire wire, byte[] certificate) => wire switch
    {
        Wire.Gzip => new HttpClient(new SocketsHttpHandler { AutomaticDecompression = DecompressionMethods.GZip }),
        Wire.Https => new HttpClient(PinnedCertificate.Handler(certificate)),
        Wire.Http2 or Wire.Http2FixedWindow => new HttpClient
        {
            DefaultRequestVersion = HttpVersion.Version20,
            DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
        },
        _ => throw new ArgumentOutOfRangeException(nameof(wire), wire, "Gzip, Https, Http2 or Http2FixedWindow."),
    };
}
