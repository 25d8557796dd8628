using System.Net;
using System.Security.Cryptography.X509Certificates;
using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Tests.Server;

/// <summary>Chapter 09's Kestrel server: h2c and HTTPS bodies, and a certificate only one client trusts.</summary>
public class WireServerTests
{
    [Fact]
    public async Task The_h2c_port_serves_the_pattern_over_http2_with_its_length()
    {
        using X509Certificate2 certificate = LoopbackCertificate.Create();
        await using WireServer server = await WireServer.StartAsync(certificate);
        using HttpClient client = WireClients.CreateClient(Wire.Http2, []);

        using HttpResponseMessage response = await client.GetAsync(server.Http2Url(1024 * 1024));
        byte[] body = await response.Content.ReadAsByteArrayAsync();

        Assert.Equal(HttpVersion.Version20, response.Version);
        Assert.Equal(1024 * 1024, response.Content.Headers.ContentLength);
        Assert.Equal(-1, Payload.FirstMismatch(body));
        Assert.Equal(1024 * 1024, body.Length);
    }

    [Fact]
    public async Task The_https_port_is_trusted_by_the_pinned_client_and_refused_by_a_default_one()
    {
        using X509Certificate2 certificate = LoopbackCertificate.Create();
        await using WireServer server = await WireServer.StartAsync(certificate);
        Uri url = server.HttpsUrl(64 * 1024);

        // The runtime's own validation refuses a certificate no store trusts: nothing was installed machine-wide.
        using (var plain = new HttpClient())
        {
            HttpRequestException refused = await Assert.ThrowsAsync<HttpRequestException>(() => plain.GetByteArrayAsync(url));
            Assert.IsType<System.Security.Authentication.AuthenticationException>(refused.InnerException);
        }

        // Another self-made certificate pinned: refused as well, so the pin is what lets the first one through.
        using (X509Certificate2 other = LoopbackCertificate.Create())
        using (var wrongPin = new HttpClient(PinnedCertificate.Handler(other.RawData)))
        {
            await Assert.ThrowsAsync<HttpRequestException>(() => wrongPin.GetByteArrayAsync(url));
        }

        byte[] certificateBytes = Convert.FromBase64String(server.Context.HttpsCertificate!);
        using HttpClient pinned = WireClients.CreateClient(Wire.Https, certificateBytes);
        using PooledBuffer body = await pinned.GetPooledAsync(url);
        Assert.Equal(64 * 1024, body.Length);
        Assert.Equal(-1, Payload.FirstMismatch(body.Span));
        Assert.Equal(certificate.RawData, certificateBytes); // the public certificate only: no private key leaves the notebook
    }

    [Fact]
    public async Task A_size_past_the_limit_is_a_400_with_the_reason()
    {
        using X509Certificate2 certificate = LoopbackCertificate.Create();
        await using WireServer server = await WireServer.StartAsync(certificate);
        using HttpClient client = WireClients.CreateClient(Wire.Http2, []);
        using HttpResponseMessage response = await client.GetAsync(new Uri(server.Http2Address, "/bytes?size=999999999"));
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("size must be", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }
}
