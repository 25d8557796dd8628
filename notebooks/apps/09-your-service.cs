// Chapter 09-your-service as a .NET file-based app, written from notebooks/09-your-service.ipynb by `dotnet run --project tools/Publish/GenerateApps`.
// To change the chapter itself, edit the notebook and run that command again (a test fails while the two differ).
// Your own lines are yours to edit here: a guess the text asks for, a value to try.
//
// Run it from anywhere in the clone:  dotnet run notebooks/apps/09-your-service.cs          (the quick profile: add -- --quick)
// It builds in Release, as the runner builds the kit (notebooks/apps/Directory.Build.props says how), and runs the
// notebook's code cells in order; each starts at its Cell(n) line, n as the notebook and the runner count cells.
// Where the text below says "cell", read the code under a Cell(n) line; to run a cell again, run the app again.
// display(...) prints tables as text and writes each chart as a page of its own, whose path it prints.
// docs/apps.md: debugging it, and what it does not do.
#:project ../../helpers/PooledHttp.Workshop.Exercising/PooledHttp.Workshop.Exercising.csproj

// The kernel's imports, then the cells' own.
using System;
using System.Text;
using System.Collections;
using System.Collections.Generic;
using System.Threading.Tasks;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Net.Http.Json;
using System.Text.Json;
using System.Threading;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Microsoft.Extensions.DependencyInjection;
using PooledHttp.Buffers;
using PooledHttp.Content;
using PooledHttp.Http;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Exercising;
using PooledHttp.Workshop.Load;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Notebooks;
using PooledHttp.Workshop.Server;
using PooledHttp.Workshop.Watching;
using static PooledHttp.Workshop.Notebooks.ChapterApp; // display(...), HTML(...), Start, Cell

Start("09-your-service", args);

// # 09 · Your service
//
// **What you will learn**
// - how a typed client from `IHttpClientFactory` uses the pooled read, and what it adds per request;
// - how to deserialize JSON straight from the pooled bytes, and what the runtime's JSON calls cost
//   beyond the objects;
// - what changes over gzip, HTTPS and HTTP/2;
// - how to size the pool from your own numbers, and watch a running process as `dotnet-counters` does.

// ## 1 · Set up
//
// Two cells: one builds the helpers library; the other loads it, the Microsoft.Extensions assemblies a
// service registers with, the namespaces, and plotly.js.

// Cell 3, the notebook's setup (#load "workshop.csx" builds the kit into artifacts/notebook-bin): the #:project line at the top does it here.

// Cell 4, the notebook's setup (#load "kit.csx" references the kit): the #:project line at the top does it here.

// ## 2 · Predict first
//
// Write down three numbers first. How many bytes does a typed client from
// the factory add per request to the pooled read of 1 MiB? How many bytes does reading 2,500 books from
// the lease allocate beyond deserializing the same JSON from memory? How many bytes does the pooled read allocate
// for a 16 MiB gzip body?

Cell(6);
long typedClientGuess = 0; // bytes the typed client adds per request
long leaseExtraGuess = 0;  // bytes the lease read of 2,500 books allocates beyond deserializing them from memory
long gzipGuess = 0;        // bytes per 16 MiB gzip download, pooled

// ## 3 · Two servers, and a certificate of your own
//
// The books and gzip bodies come from the series' `LocalServer`; HTTPS and HTTP/2 from Kestrel
// (`WireServer`): HTTP/2 without TLS on one port, HTTP/1.1 over TLS on another. The certificate is made
// here, in memory, with `CertificateRequest`; no certificate store has it, so a default client refuses it:

Cell(8);
const int OneMiB = 1024 * 1024;
// Measured as LoopbackCertificate.Create
static X509Certificate2 Create()
{
    using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
    var request = new CertificateRequest("CN=pooledhttp-workshop", key, HashAlgorithmName.SHA256);
    var names = new SubjectAlternativeNameBuilder();
    names.AddIpAddress(IPAddress.Loopback);
    names.AddDnsName("localhost");
    request.CertificateExtensions.Add(names.Build());
    request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], critical: false)); // server authentication
    DateTimeOffset now = DateTimeOffset.UtcNow;
    using X509Certificate2 made = request.CreateSelfSigned(now.AddMinutes(-5), now.AddDays(1));
    return X509CertificateLoader.LoadPkcs12(made.Export(X509ContentType.Pkcs12), password: null);
}
var server = LocalServer.Start();
X509Certificate2 certificate = Create();
WireServer wire = await WireServer.StartAsync(certificate);
Console.WriteLine($"LocalServer on {server.BaseAddress}; Kestrel: h2c on {wire.Http2Address}, HTTPS on {wire.HttpsAddress}");
Console.WriteLine($"Certificate {certificate.Subject}, thumbprint {certificate.Thumbprint[..16]}..., valid until {certificate.NotAfter:u}");

try
{
    using var untrusting = new HttpClient();
    await untrusting.GetByteArrayAsync(wire.HttpsUrl(1024));
    Console.WriteLine("A default client accepted it: unexpected.");
}
catch (HttpRequestException e)
{
    Console.WriteLine($"A default client refuses it: {e.InnerException?.GetType().Name}: {e.InnerException?.Message}");
}

// ## 4 · A typed client from `IHttpClientFactory`
//
// A service registers a typed client, and the factory makes a new one each time it is resolved, over a
// handler chain it shares and replaces every two minutes (`SetHandlerLifetime`;
// [`DefaultHttpClientFactory.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/Microsoft.Extensions.Http/src/DefaultHttpClientFactory.cs)). The typed client
// calls the pooled read, an extension method, on the client it was given.

Cell(10);
// Measured as ServiceCalls.AddCatalogClient
static IServiceCollection AddCatalogClient(IServiceCollection services)
{
    services.AddHttpClient<CatalogClient>()
        .SetHandlerLifetime(TimeSpan.FromMinutes(2));
    return services;
}

// Measured as ServiceCalls.DownloadAsync
static async Task<int> DownloadAsync(IServiceProvider services, Uri url)
{
    using IServiceScope scope = services.CreateScope();
    CatalogClient catalog = scope.ServiceProvider.GetRequiredService<CatalogClient>();
    return await catalog.DownloadAsync(url);
}

// Measured as ServiceCalls.DownloadArrayAsync
static async Task<int> DownloadArrayAsync(IServiceProvider services, Uri url)
{
    using IServiceScope scope = services.CreateScope();
    CatalogClient catalog = scope.ServiceProvider.GetRequiredService<CatalogClient>();
    return await catalog.DownloadArrayAsync(url);
}

using (ServiceProvider services = AddCatalogClient(new ServiceCollection()).BuildServiceProvider())
{
    Uri url = server.BytesUrl(OneMiB, contentLength: true);
    Console.WriteLine($"Two requests through the typed client: {await DownloadAsync(services, url):N0} bytes pooled, {await DownloadArrayAsync(services, url):N0} bytes with GetByteArrayAsync.");
    IHttpMessageHandlerFactory handlers = services.GetRequiredService<IHttpMessageHandlerFactory>();
    Console.WriteLine($"The handler chain the factory hands CatalogClient, asked for twice, is one object: {object.ReferenceEquals(handlers.CreateHandler(nameof(CatalogClient)), handlers.CreateHandler(nameof(CatalogClient)))}");
}

// Section 6 measures this code beside the same reads through one plain, long-lived `HttpClient`.

// ## 5 · Use the bytes where they are
//
// `JsonSerializer.Deserialize` takes a `ReadOnlySpan<byte>`, so the books are built straight from the
// lease, which goes back to the pool before the method returns. The
// runtime's two ways are `ReadFromJsonAsync` after `GetAsync`, whose default completion option buffers
// the body first, and `GetFromJsonAsync`, which streams
// ([`HttpClientJsonExtensions.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.Http.Json/src/System/Net/Http/Json/HttpClientJsonExtensions.cs));
// section 6 measures all four. The baseline deserializes the same
// JSON from an array in memory: the books and the parser's own work, without HTTP.

Cell(13);
// Measured as BookJson.FromMemory
static int FromMemory(byte[] json)
{
    Book[] books = JsonSerializer.Deserialize<Book[]>(json, PooledJson.Options)
        ?? throw new JsonException("The JSON held null.");
    return books.Length;
}

// Measured as BookJson.FromLeaseAsync
static async Task<int> FromLeaseAsync(HttpClient client, Uri url)
{
    using PooledBuffer body = await client.GetPooledAsync(url);
    Book[] books = JsonSerializer.Deserialize<Book[]>(body.Span, PooledJson.Options)
        ?? throw new JsonException("The books API returned null.");
    return books.Length;
}

// Measured as BookJson.ReadFromJsonAsync
static async Task<int> ReadFromJsonAsync(HttpClient client, Uri url)
{
    using HttpResponseMessage response = await client.GetAsync(url);
    response.EnsureSuccessStatusCode();
    Book[] books = await response.Content.ReadFromJsonAsync<Book[]>(PooledJson.Options)
        ?? throw new JsonException("The books API returned null.");
    return books.Length;
}

using (var client = new HttpClient())
{
    foreach (int count in new[] { 250, 2_500 })
    {
        Uri url = server.Url($"books?count={count}");
        byte[] json = await client.GetByteArrayAsync(url);
        Console.WriteLine($"{count:N0} books, {json.Length:N0} bytes of JSON: from memory {FromMemory(json):N0}, from the lease {await FromLeaseAsync(client, url):N0}, ReadFromJsonAsync {await ReadFromJsonAsync(client, url):N0} books.");
    }
}

// ## 6 · What the wire really does
//
// **Gzip**: with `AutomaticDecompression` the handler
// inflates the body as you read it and drops the Content-Length, the compressed one
// ([`DecompressionHandler.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.Http/src/System/Net/Http/SocketsHttpHandler/DecompressionHandler.cs)).
// **HTTPS**: `SslStream` decrypts each record in a buffer of its own before your read sees it
// ([`SslStream.IO.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.Security/src/System/Net/Security/SslStream.IO.cs)).
// **HTTP/2**: the body arrives in DATA frames on a stream of its own, over a connection other requests
// may share. The HTTPS client accepts what the machine trusts and the exact certificate of section 3
// (`PinnedCertificate.Handler`):

Cell(15);
// Measured as WireClients.CreateClient
static HttpClient CreateClient(Wire wire, byte[] certificate) => wire switch
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

using (var plain = new HttpClient())
using (HttpResponseMessage compressed = await plain.GetAsync(server.GzipUrl(OneMiB, contentLength: true), HttpCompletionOption.ResponseHeadersRead))
{
    Console.WriteLine($"Gzip without AutomaticDecompression: Content-Length {compressed.Content.Headers.ContentLength:N0}, the compressed body as the server sent it.");
}

foreach ((Wire kind, Uri url) in new[] { (Wire.Gzip, server.GzipUrl(OneMiB, contentLength: true)), (Wire.Https, wire.HttpsUrl(OneMiB)), (Wire.Http2, wire.Http2Url(OneMiB)) })
{
    using HttpClient client = CreateClient(kind, certificate.RawData);
    using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead);
    string length = response.Content.Headers.ContentLength is long declared ? $"{declared:N0}" : "none";
    using PooledBuffer body = await response.ReadPooledAsync();
    Console.WriteLine($"{kind,-5}: HTTP/{response.Version}, Content-Length {length,9}, read {body.Length:N0} bytes, first wrong byte at {Payload.FirstMismatch(body.Span)} (-1: none)");
}

// Now all of it in BenchmarkDotNet's process (the servers stay in this one): both clients, the four
// ways to the books, both reads on each wire. `Http2FixedWindow` is HTTP/2 with one runtime setting
// changed, explained below.

Cell(17);
// Both servers' addresses (and the certificate to pin) travel to the benchmarks in one context.
// Each part's table is shown below, after its question.
MeasurementResult results = Measure.Run("09-your-service", server.Context.With(wire.Context), typeof(ServiceClients), typeof(ServiceJson), typeof(WireDownloads));

// What does the typed client add per request?

Cell(19);
MeasurementResult clients = results.Of(nameof(ServiceClients));
display(clients);
display(Charts.Allocations("09 · one 1 MiB download, plain client against a typed client from the factory", clients));
MeasuredRow plainPooled = clients.Get("Plain_PooledRead"), typedPooled = clients.Get("TypedClient_PooledRead");
MeasuredRow plainArray = clients.Get("Plain_GetByteArrayAsync"), typedArray = clients.Get("TypedClient_GetByteArrayAsync");
Console.WriteLine($"Pooled read: plain client {ByteUnits.Format(plainPooled.AllocatedBytes)}, typed client {ByteUnits.Format(typedPooled.AllocatedBytes)}: the typed client adds {ByteUnits.Format(typedPooled.AllocatedBytes - plainPooled.AllocatedBytes)} per request "
    + "(a scope, a new CatalogClient and HttpClient, and the factory's logging handlers each request passes through: this measurement does not split it between them).");
Console.WriteLine($"GetByteArrayAsync: plain {ByteUnits.Format(plainArray.AllocatedBytes)}, typed {ByteUnits.Format(typedArray.AllocatedBytes)}.");
Console.WriteLine($"You guessed {ByteUnits.Format(typedClientGuess)} for what the typed client adds.");

// What does getting the books over HTTP cost beyond deserializing them from memory?

Cell(21);
{ // a block of its own, as the cell is a scope of its own in the notebook: a name it declares is declared by another cell too
    MeasurementResult json = results.Of(nameof(ServiceJson));
    display(json);
    string[] ways = { "FromMemory", "FromLease", "GetFromJsonAsync", "ReadFromJsonAsync" };
    string[] sizes = { "Books=250", "Books=2500" };
    display(Charts.Grouped("09 · KiB allocated to get the books", "catalogue", "KiB per call", sizes,
        ways.ToDictionary(w => w, w => sizes.Select(s => json.Get(w, variant: s).AllocatedBytes / 1024.0).ToArray())));
    foreach (string size in sizes)
    {
        long objects = json.Get("FromMemory", variant: size).AllocatedBytes;
        Console.WriteLine($"{size}: deserializing from memory {ByteUnits.Format(objects)}; beyond that, from the lease {ByteUnits.Format(json.Get("FromLease", variant: size).AllocatedBytes - objects)}, "
            + $"GetFromJsonAsync {ByteUnits.Format(json.Get("GetFromJsonAsync", variant: size).AllocatedBytes - objects)}, ReadFromJsonAsync {ByteUnits.Format(json.Get("ReadFromJsonAsync", variant: size).AllocatedBytes - objects)}.");
    }
    long leaseExtra = json.Get("FromLease", variant: "Books=2500").AllocatedBytes - json.Get("FromMemory", variant: "Books=2500").AllocatedBytes;
    Console.WriteLine($"You guessed {ByteUnits.Format(leaseExtraGuess)} for what the lease read of 2,500 books allocates beyond deserializing from memory; it allocated {ByteUnits.Format(leaseExtra)}.");
}

// Beyond deserializing from memory, the lease and `GetFromJsonAsync` add a few KiB; `ReadFromJsonAsync` adds about the JSON's size. The books are
// most of every bar: pooling the bytes cannot make them cheaper. A service that needs them one at a time
// can stream them (chapter 03's exercise).

// Does the pooled read stay flat on every wire?

Cell(24);
MeasurementResult wires = results.Of(nameof(WireDownloads));
display(wires);
(Wire Kind, int Size)[] cases = Enum.GetValues<Wire>().SelectMany(w => new[] { (w, OneMiB), (w, 16 * OneMiB) }).ToArray();
display(Charts.Grouped("09 · KiB allocated per download, by what the body crosses", "wire, body size", "KiB per download", cases.Select(c => $"{c.Kind}, {ByteUnits.Format(c.Size)}").ToArray(),
    new[] { "GetByteArrayAsync", "PooledRead" }.ToDictionary(s => s, s => cases.Select(c => wires.Get(s, c.Size, c.Kind.ToString()).AllocatedBytes / 1024.0).ToArray())));
foreach (Wire kind in Enum.GetValues<Wire>())
{
    MeasuredRow small = wires.Get("PooledRead", OneMiB, kind.ToString());
    MeasuredRow large = wires.Get("PooledRead", 16 * OneMiB, kind.ToString());
    MeasuredRow naive = wires.Get("GetByteArrayAsync", 16 * OneMiB, kind.ToString());
    string flat = large.AllocatedBytes <= small.AllocatedBytes + 64 * 1024 ? "within 64 KiB of the 1 MiB figure" : "grows with the body";
    double perMiB = (large.AllocatedBytes - small.AllocatedBytes) / 15.0;
    Console.WriteLine($"{kind,-5}: pooled read {ByteUnits.Format(small.AllocatedBytes),9} at 1 MiB, {ByteUnits.Format(large.AllocatedBytes),9} at 16 MiB ({flat}; {(perMiB < 0 ? "-" : "+")}{ByteUnits.Format(Math.Abs(perMiB))} per MiB); GetByteArrayAsync at 16 MiB {ByteUnits.Format(naive.AllocatedBytes)} ({(double)naive.AllocatedBytes / (16 * OneMiB):0.00} bodies).");
}
Console.WriteLine($"You guessed {ByteUnits.Format(gzipGuess)} for the pooled read of a 16 MiB gzip body.");

// Each line compares the 16 MiB figure with the 1 MiB one and prints the growth per MiB. The code is
// the same on every wire: over HTTP/2 any growth is the handler's (`docs/measurements.md`); over HTTPS it is not traced.
//
// **HTTP/2's window.** The handler copies each DATA frame into the stream's buffer
// ([`Http2Stream.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.Http/src/System/Net/Http/SocketsHttpHandler/Http2Stream.cs)),
// 16 KiB blocks rented from `ArrayPool<byte>.Shared`
// ([`MultiArrayBuffer.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/Common/src/System/Net/MultiArrayBuffer.cs)); your read copies
// out of it. The server may send a window ahead, and the runtime doubles the window while reads keep
// up, to a cap.
// The shared pool keeps one array per size per thread and 32 per core
// ([`SharedArrayPool.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Private.CoreLib/src/System/Buffers/SharedArrayPool.cs)):
// a wider window holds more blocks than that, and the rest are allocated. `Http2FixedWindow` switches the
// doubling off
// (`AppContext.SetSwitch("System.Net.SocketsHttpHandler.Http2FlowControl.DisableDynamicWindowSizing", true)`),
// so the window stays at `SocketsHttpHandler.InitialHttp2StreamWindowSize`; a lower cap is the third way
// ([docs/measurements.md](../../docs/measurements.md#http2-bodies)). Side by side:

Cell(26);
foreach (int size in new[] { OneMiB, 16 * OneMiB })
{
    long widened = wires.Get("PooledRead", size, nameof(Wire.Http2)).AllocatedBytes;
    long fixedWindow = wires.Get("PooledRead", size, nameof(Wire.Http2FixedWindow)).AllocatedBytes;
    Console.WriteLine($"Pooled read of {ByteUnits.Format(size),6} over HTTP/2: {ByteUnits.Format(widened),10} with the window widened as it goes, {ByteUnits.Format(fixedWindow),10} with it fixed.");
}
TimeDifference fixedMinusWidened = TimeDifference.Between(wires.Get("PooledRead", 16 * OneMiB, nameof(Wire.Http2FixedWindow)), wires.Get("PooledRead", 16 * OneMiB, nameof(Wire.Http2)));
Console.WriteLine($"Time of the pooled read of 16 MiB, fixed window minus widened, on loopback: {fixedMinusWidened}.");
using (var handler = new SocketsHttpHandler())
{
    int window = handler.InitialHttp2StreamWindowSize;
    Console.WriteLine($"A window fixed at {window:N0} bytes (SocketsHttpHandler.InitialHttp2StreamWindowSize) lets a stream move at most {window / 0.050 / 1e6:0.0} MB a second across a 50 ms round trip.");
}

// The side-by-side lines print what a fixed window saves, or costs, at each size; its line under "Does the
// pooled read stay flat on every wire?" says whether that cost grows with the body (if so, probably the window
// updates the handler sends each time reads consume an eighth of the window,
// [`Http2StreamWindowManager.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.Http/src/System/Net/Http/SocketsHttpHandler/Http2StreamWindowManager.cs);
// not measured apart). Across distance a fixed window lets the server send one window per round trip (the last
// line computes that cap; on loopback, the time line says whether the two differ beyond the error).

// ## 7 · Size the pool for your service
//
// A service whose bodies in flight outgrow `BodyPool.Shared`'s budget, or that wants a ceiling of its
// own, needs its own pool, sized from its peak downloads in flight and a typical body. Put yours here:

Cell(29);
int inFlight = 16;              // downloads in flight at your peak
int typicalBody = 2 * OneMiB;   // a typical body, in bytes

BoundedArrayPool pool = BodyPool.Create(inFlight, typicalBody);
Console.WriteLine($"BodyPool.Shared keeps at most {ByteUnits.Format(BodyPool.MaxRetainedBytes)}; {inFlight} bodies of {ByteUnits.Format(typicalBody)} in flight {((long)inFlight * typicalBody > BodyPool.MaxRetainedBytes ? "outgrow" : "fit within")} it.");
Console.WriteLine($"BodyPool.Create({inFlight}, {typicalBody:N0}): keeps at most {ByteUnits.Format(pool.MaxRetainedBytes)} of free arrays (the bodies in flight and half again, for larger ones), lends arrays up to {ByteUnits.Format(pool.MaxArrayLength)}, "
    + $"and lets arrays idle for {pool.IdleTimeout.TotalSeconds:0} s go.");
Console.WriteLine($"That is the memory it may hold between bursts; the bodies in flight themselves are {ByteUnits.Format((long)inFlight * typicalBody)} either way.");

// The pool costs the memory it keeps while idle; in return a warm pool serves the bodies.

// ## 8 · See it on a running process
//
// `dotnet-counters` and `dotnet-trace` attach to a running process through the diagnostics channel it
// opens by default ([docs](https://learn.microsoft.com/dotnet/core/diagnostics/diagnostic-port)). The cell below does the same with their client library: it starts chapter 07's load probe with your
// numbers, naive read first, then the pooled read on a pool made from your numbers, charts the bytes
// allocated each second, and prints per read the runtime's counters, the `ArrayPool` events and the
// helpers' `PooledHttp` meter. Before you run
// it: how many misses will that new pool count, and in which seconds?

Cell(32);
LoadProbe probe = await LoadProbe.BuildAsync();
int downloads = MeasurementProfile.Current == "quick" ? 12 * inFlight : 30 * inFlight;
var seconds = new Dictionary<string, (double Second, double Value)[]>();
Plotly.NET.GenericChart Live() => Charts.Timeline($"09 · MiB allocated per second, {inFlight} paced downloads of {ByteUnits.Format(typicalBody)} in flight", "MiB allocated in the second", seconds);
var chart = LiveOutput.Show(Live()); // replaced in place each second (the handle display() returns cannot do that: see LiveOutput)
var runs = new List<(LoadResult Result, IReadOnlyList<CounterSecond> Seconds)>();
foreach (string strategy in new[] { LoadStrategies.Naive, LoadStrategies.PooledSized })
{
    seconds[strategy] = [];
    var run = await probe.RunWatchedAsync(strategy, server, typicalBody, contentLength: false, inFlight, downloads, Pace.Network, so_far =>
    {
        seconds[strategy] = so_far.Select(s => (s.Second, s.AllocatedBytes / OneMiB)).ToArray();
        chart.Update(Live());
    });
    runs.Add(run);
}

foreach ((LoadResult result, IReadOnlyList<CounterSecond> watched) in runs)
{
    Console.WriteLine($"{result.Strategy,-13} peak overlap {result.PeakOverlap,3} of {inFlight} · {watched.Count} s watched · allocated {ByteUnits.Format(watched.Sum(s => s.AllocatedBytes))} · Gen2 {watched.Sum(s => s.Gen2Collections):0} · "
        + $"LOH up to {ByteUnits.Format(watched.Max(s => s.LohBytes))} · GC pause {watched.Sum(s => s.GcPauseMs):0} ms · ArrayPool rents {watched.Sum(s => s.PoolRents):N0}, of which allocated {watched.Sum(s => s.PoolAllocations):N0} · peak working set {ByteUnits.Format(result.PeakWorkingSetBytes)}");
    Console.WriteLine($"{"",-13} body pool (PooledHttp meter): rents {watched.Sum(s => s.BodyPoolHits + s.BodyPoolMisses):N0}, of which missed {watched.Sum(s => s.BodyPoolMisses):N0} · returns refused {watched.Sum(s => s.BodyPoolRefusedReturns):N0} · misses in seconds {string.Join(", ", watched.Where(s => s.BodyPoolMisses > 0).Select(s => $"{s.Second:0}").DefaultIfEmpty("none"))}");
}

// The load was real only if the peak overlap is close to `inFlight`. The watch attaches moments after the
// probe starts, warm-up included; `dotnet-counters` sees a server from when you attach. The
// `ArrayPool` events come from the runtime's pools ([`ArrayPoolEventSource.cs`](https://github.com/dotnet/runtime/blob/main/src/libraries/System.Private.CoreLib/src/System/Buffers/ArrayPoolEventSource.cs)), here the shared one;
// the body pool line reads zero for the naive read, which uses none. From a shell (`dotnet-counters ps`
// lists process ids):

Cell(34);
Console.WriteLine(ProcessWatch.CountersCommand(processId: 12345));
Console.WriteLine(ProcessWatch.TraceCommand(processId: 12345));

// ## 9 · Your turn: a typed client that reads pooled
//
// In `exercises/E09_BooksClient.cs`, make `GetBooksAsync` read the books pooled and deserialize them
// from the lease. The check registers your class with `AddHttpClient`, resolves it per request and
// compares the books with the server's; the measurement reads 250 books, drawn beside the four ways
// section 6 measured.

Cell(36);
ExerciseResult e09 = Exercise09.Run(server);
display(e09);

Cell(37);
display(e09.Chart(results));

Cell(38);
await wire.DisposeAsync();
await server.DisposeAsync();
certificate.Dispose();
Console.WriteLine("Servers stopped.");

// ## Recap
//
// - A typed client takes the pooled read as it is: `GetPooledAsync` on the client the factory hands it.
// - Deserialize from the lease's span and dispose the lease, or let `GetFromJsonAsync` stream: for these
//   catalogues the books are most of it (section 6's lines).
// - `GetByteArrayAsync` costs at least the body on every wire; section 6's lines print what the pooled
//   read costs on each, and whether it grows with the body.
// - Size a pool from peak downloads in flight and a typical body.
// - On a server, watch the runtime's counters and the `PooledHttp` meter with `dotnet-counters`.
//
// End of the series: the [results page](../../docs/results.md) gathers its figures, and [00](../00-getting-started.ipynb) starts over.
//
// *Sources: S4, Steve Gordon, ["Using HttpCompletionOption to Improve HttpClient Performance in .NET"](https://www.stevejgordon.co.uk/using-httpcompletionoption-responseheadersread-to-improve-httpclient-performance-dotnet)
// (the books API); the runtime's [counters](https://learn.microsoft.com/dotnet/core/diagnostics/available-counters).*

// Declared in cell 10; a program's types follow its statements.
public sealed class CatalogClient(HttpClient http)
{
    // Measured as CatalogClient.DownloadAsync
    public async Task<int> DownloadAsync(Uri url, CancellationToken cancellationToken = default)
    {
        using PooledBuffer body = await http.GetPooledAsync(url, cancellationToken: cancellationToken);
        return body.Length;
    }

    // Measured as CatalogClient.DownloadArrayAsync
    public async Task<int> DownloadArrayAsync(Uri url, CancellationToken cancellationToken = default)
    {
        byte[] body = await http.GetByteArrayAsync(url, cancellationToken);
        return body.Length;
    }
}
