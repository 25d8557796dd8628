using System.Collections.Concurrent;
using System.Globalization;
using System.Net;
using System.Security.Cryptography.X509Certificates;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;

namespace PooledHttp.Workshop.Server;

/// <summary>
/// Chapter 09's Kestrel server on loopback: the same <c>GET /bytes?size=N</c> body as <see cref="LocalServer"/>
/// (the <see cref="Payload"/> pattern, with a Content-Length, in one write) on two ports: one that speaks only
/// HTTP/2 without TLS (h2c), one that speaks HTTP/1.1 over TLS with a certificate the caller made
/// (<see cref="LoopbackCertificate.Create"/>).
/// </summary>
/// <remarks>It runs in the notebook's process; the measured client runs in BenchmarkDotNet's and trusts the
/// certificate it finds in <see cref="RunContext.HttpsCertificate"/>, and nothing else does.</remarks>
public sealed class WireServer : IAsyncDisposable
{
    /// <summary>The largest body served: chapter 09 measures 1 MiB and 16 MiB.</summary>
    public const int MaxBodySize = 64 * 1024 * 1024;

    // One array per size served, filled once: the server's own cost stays out of the way of the client's.
    private static readonly ConcurrentDictionary<int, byte[]> Bodies = new();

    private readonly WebApplication _app;
    private readonly byte[] _certificate;

    private WireServer(WebApplication app, Uri http2, Uri https, byte[] certificate)
    {
        _app = app;
        Http2Address = http2;
        HttpsAddress = https;
        _certificate = certificate;
    }

    /// <summary>The base address of the HTTP/2-only (h2c) port.</summary>
    public Uri Http2Address { get; }

    /// <summary>The base address of the HTTPS port (HTTP/1.1 over TLS).</summary>
    public Uri HttpsAddress { get; }

    /// <summary>Starts the server on two free loopback ports, presenting <paramref name="certificate"/> on the HTTPS one.</summary>
    public static async Task<WireServer> StartAsync(X509Certificate2 certificate)
    {
        ArgumentNullException.ThrowIfNull(certificate);
        ListenOptions? http2 = null, https = null;
        WebApplicationBuilder builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Listen(IPAddress.Loopback, 0, listen => (http2 = listen).Protocols = HttpProtocols.Http2);
            kestrel.Listen(IPAddress.Loopback, 0, listen =>
            {
                (https = listen).Protocols = HttpProtocols.Http1;
                listen.UseHttps(certificate);
            });
        });

        WebApplication app = builder.Build();
        app.MapGet("/bytes", WriteBytesAsync);
        await app.StartAsync().ConfigureAwait(false);
        return new WireServer(
            app,
            new Uri($"http://127.0.0.1:{http2!.IPEndPoint!.Port}/"),
            new Uri($"https://127.0.0.1:{https!.IPEndPoint!.Port}/"),
            certificate.RawData);
    }

    /// <summary>The address of a body of <paramref name="size"/> bytes on the h2c port.</summary>
    public Uri Http2Url(int size) => new(Http2Address, ServerPaths.Bytes(size, contentLength: true));

    /// <summary>The address of a body of <paramref name="size"/> bytes on the HTTPS port.</summary>
    public Uri HttpsUrl(int size) => new(HttpsAddress, ServerPaths.Bytes(size, contentLength: true));

    /// <summary>What hands both addresses, and the one certificate to trust, to a benchmark process, in a <see cref="RunContext"/>.</summary>
    public RunContext Context => new() { WireHttp2 = Http2Address, Https = HttpsAddress, HttpsCertificate = Convert.ToBase64String(_certificate) };

    /// <summary>Stops the server and frees both ports.</summary>
    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync().ConfigureAwait(false);
        await _app.DisposeAsync().ConfigureAwait(false);
    }

    private static async Task WriteBytesAsync(HttpContext context)
    {
        if (!int.TryParse(context.Request.Query["size"], NumberStyles.None, CultureInfo.InvariantCulture, out int size) || size > MaxBodySize)
        {
            context.Response.StatusCode = StatusCodes.Status400BadRequest;
            await context.Response.WriteAsync($"size must be 0 to {MaxBodySize:N0}", context.RequestAborted).ConfigureAwait(false);
            return;
        }

        byte[] body = Bodies.GetOrAdd(size, static n =>
        {
            byte[] filled = new byte[n];
            Payload.Fill(filled);
            return filled;
        });
        context.Response.ContentType = "application/octet-stream";
        context.Response.ContentLength = size;
        await context.Response.Body.WriteAsync(body, context.RequestAborted).ConfigureAwait(false);
    }
}
