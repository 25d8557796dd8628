using System.Globalization;
using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;

namespace PooledHttp.Workshop.Server;

/// <summary>
/// A Kestrel server on loopback for chapter 06: one port that speaks only HTTP/2 without TLS (h2c,
/// "prior knowledge": the client must send <c>Version = 2.0</c> with a policy that does not fall back to
/// HTTP/1.1, such as <see cref="HttpVersionPolicy.RequestVersionExact"/>), and one that speaks only HTTP/1.1, both
/// answering <c>POST /sink</c> with the number of body bytes received. <see cref="LocalServer"/>'s
/// HttpListener cannot speak HTTP/2, hence this second server.
/// </summary>
/// <remarks>Like <see cref="LocalServer"/>, it runs in the notebook's process; the measured client runs in BenchmarkDotNet's.</remarks>
public sealed class Http2Server : IAsyncDisposable
{
    private readonly WebApplication _app;

    private Http2Server(WebApplication app, Uri http2, Uri http11)
    {
        _app = app;
        Http2Address = http2;
        Http11Address = http11;
    }

    /// <summary>The base address of the HTTP/2-only (h2c) port.</summary>
    public Uri Http2Address { get; }

    /// <summary>The base address of the HTTP/1.1-only port.</summary>
    public Uri Http11Address { get; }

    /// <summary>Starts the server on two free loopback ports.</summary>
    public static async Task<Http2Server> StartAsync()
    {
        ListenOptions? http2 = null, http11 = null;
        WebApplicationBuilder builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Listen(IPAddress.Loopback, 0, listen => (http2 = listen).Protocols = HttpProtocols.Http2);
            kestrel.Listen(IPAddress.Loopback, 0, listen => (http11 = listen).Protocols = HttpProtocols.Http1);
        });

        WebApplication app = builder.Build();
        app.MapPost("/sink", SinkAsync);
        await app.StartAsync().ConfigureAwait(false);

        // Kestrel writes the port it bound back into the listen options.
        return new Http2Server(app, new Uri($"http://127.0.0.1:{http2!.IPEndPoint!.Port}/"), new Uri($"http://127.0.0.1:{http11!.IPEndPoint!.Port}/"));
    }

    /// <summary>What hands both addresses to a benchmark process, in a <see cref="RunContext"/>.</summary>
    public RunContext Context => new() { Http2 = Http2Address, Http11 = Http11Address };

    /// <summary>Stops the server and frees both ports.</summary>
    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync().ConfigureAwait(false);
        await _app.DisposeAsync().ConfigureAwait(false);
    }

    private static async Task<IResult> SinkAsync(HttpRequest request)
    {
        long total = 0;
        byte[] buffer = System.Buffers.ArrayPool<byte>.Shared.Rent(16 * 1024);
        try
        {
            int read;
            while ((read = await request.Body.ReadAsync(buffer, request.HttpContext.RequestAborted).ConfigureAwait(false)) > 0)
            {
                total += read;
            }
        }
        finally
        {
            System.Buffers.ArrayPool<byte>.Shared.Return(buffer);
        }

        return Results.Text(total.ToString(CultureInfo.InvariantCulture));
    }
}
