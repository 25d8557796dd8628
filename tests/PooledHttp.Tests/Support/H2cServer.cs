using System.Globalization;
using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Tests.Support;

/// <summary>
/// Kestrel on a loopback port that speaks only HTTP/2 without TLS (h2c, prior knowledge), with the endpoints
/// the library's HTTP/2 tests need. Kestrel frames every response correctly; ill-framed responses are the
/// raw-socket server's job, over HTTP/1.1.
/// </summary>
/// <remarks>
/// <list type="bullet">
/// <item><c>GET|HEAD /bytes?size=N[&amp;length=true]</c>: N pattern bytes, with a Content-Length or without one.</item>
/// <item><c>/status?code=N[&amp;length=L]</c>: status N, with a Content-Length of L and no body when N has none.</item>
/// <item><c>POST /late-reader?delayMs=D</c>: sends its headers at once, waits D ms, then reads the whole request
/// body and hands it to <see cref="Received"/>: a client whose <c>SendAsync</c> returns while its body is
/// still going out.</item>
/// </list>
/// </remarks>
internal sealed class H2cServer : IAsyncDisposable
{
    private readonly WebApplication _app;

    private H2cServer(WebApplication app, Uri address)
    {
        _app = app;
        Address = address;
    }

    public Uri Address { get; }

    /// <summary>The bodies <c>/late-reader</c> received, in order.</summary>
    public System.Collections.Concurrent.ConcurrentQueue<byte[]> Received { get; } = new();

    /// <summary>A client that speaks HTTP/2 to it by prior knowledge for every request it builds itself.</summary>
    public static HttpClient Client() => new() { DefaultRequestVersion = HttpVersion.Version20, DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact };

    public static async Task<H2cServer> StartAsync()
    {
        ListenOptions? h2 = null;
        WebApplicationBuilder builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, 0, listen => (h2 = listen).Protocols = HttpProtocols.Http2));
        WebApplication app = builder.Build();
        H2cServer? server = null;
        app.MapMethods("/bytes", ["GET", "HEAD"], async (HttpContext context) =>
        {
            int size = int.Parse(context.Request.Query["size"]!, CultureInfo.InvariantCulture);
            byte[] body = new byte[size];
            Payload.Fill(body);
            if (context.Request.Query["length"] == "true")
            {
                context.Response.ContentLength = size;
            }

            if (!HttpMethods.IsHead(context.Request.Method))
            {
                await context.Response.Body.WriteAsync(body);
            }
        });
        app.MapGet("/trickle", async (HttpContext context) =>
        {
            // A body that never ends: four bytes every 50 ms until the client goes away.
            CancellationToken gone = context.RequestAborted;
            try
            {
                while (!gone.IsCancellationRequested)
                {
                    await context.Response.Body.WriteAsync("part"u8.ToArray(), gone);
                    await context.Response.Body.FlushAsync(gone);
                    await Task.Delay(50, gone);
                }
            }
            catch (OperationCanceledException)
            {
            }
        });
        app.MapGet("/status", (HttpContext context) =>
        {
            context.Response.StatusCode = int.Parse(context.Request.Query["code"]!, CultureInfo.InvariantCulture);
            if (context.Request.Query["length"] is { Count: 1 } length)
            {
                context.Response.ContentLength = long.Parse(length!, CultureInfo.InvariantCulture);
            }
        });
        app.MapPost("/late-reader", async (HttpContext context) =>
        {
            await context.Response.StartAsync();
            await context.Response.Body.FlushAsync();
            await Task.Delay(int.Parse(context.Request.Query["delayMs"]!, CultureInfo.InvariantCulture));
            using var body = new MemoryStream();
            await context.Request.Body.CopyToAsync(body);
            server!.Received.Enqueue(body.ToArray());
        });
        await app.StartAsync();
        server = new H2cServer(app, new Uri($"http://127.0.0.1:{h2!.IPEndPoint!.Port}/"));
        return server;
    }

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
    }
}
