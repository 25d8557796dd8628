using System.Net;
using BenchmarkDotNet.Attributes;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 06, after S3 (dotnet/runtime PR #32557): S3's app as a benchmark. An
/// <see cref="HttpMessageInvoker"/> over a <see cref="SocketsHttpHandler"/> without cookies or
/// redirects POSTs 100,000 bytes and copies the response to <see cref="Stream.Null"/>, over HTTP/1.1
/// and HTTP/2, reusing one request message (as S3 did) or building a new one each time.
/// </summary>
public class Http2Post : IDisposable
{
    /// <summary>S3's body size.</summary>
    public const int BodySize = 100_000;
    private readonly byte[] _body = new byte[BodySize];
    private HttpMessageInvoker _invoker = null!;
    private HttpRequestMessage _reused = null!;
    private Uri _sink = null!;
    private Version _version = null!;

    /// <summary>HTTP/1.1 or HTTP/2.</summary>
    [Params(HttpProtocol.Http11, HttpProtocol.Http2)]
    public HttpProtocol Protocol { get; set; }

    /// <summary>S3's handler and, for the reused case, S3's one request message.</summary>
    [GlobalSetup]
    public void Setup()
    {
        Server.RunContext context = Server.RunContext.Current;
        Uri address = Server.RunContext.Require(Protocol == HttpProtocol.Http2 ? context.Http2 : context.Http11, $"Chapter 06's {Protocol} address", "Measure.Run with the chapter's Http2Server.Context");
        _sink = new Uri(address, "/sink");
        _version = Protocol == HttpProtocol.Http2 ? HttpVersion.Version20 : HttpVersion.Version11;
        _invoker = new HttpMessageInvoker(new SocketsHttpHandler { UseCookies = false, AllowAutoRedirect = false });
        _reused = NewRequest(_sink, _version, _body);
    }

    /// <summary>Disposes the invoker and the reused message.</summary>
    [GlobalCleanup]
    public void Dispose()
    {
        _reused?.Dispose();
        _invoker?.Dispose();
        GC.SuppressFinalize(this);
    }

    /// <summary>S3's way: the same <see cref="HttpRequestMessage"/> every time (the invoker, unlike <see cref="HttpClient"/>, allows it).</summary>
    [Benchmark(Baseline = true)]
    public Task<long> ReusedRequest() => SendAsync(_invoker, _reused);

    /// <summary>What most code does: a new message and content per request, over the same body bytes.</summary>
    [Benchmark]
    public Task<long> NewRequest_EachTime() => SendNewRequestAsync(_invoker, _sink, _version, _body);

    /// <summary>S3's request: a POST of <paramref name="body"/> as <paramref name="version"/>, which must not fall back to another version.</summary>
    public static HttpRequestMessage NewRequest(Uri sink, Version version, byte[] body) => new(HttpMethod.Post, sink)
    {
        Version = version,
        VersionPolicy = HttpVersionPolicy.RequestVersionExact,
        Content = new ByteArrayContent(body),
    };

    /// <summary>A new request message for every send.</summary>
    /// <returns>The answer's declared length.</returns>
    public static async Task<long> SendNewRequestAsync(HttpMessageInvoker invoker, Uri sink, Version version, byte[] body)
    {
        using HttpRequestMessage request = NewRequest(sink, version, body);
        return await SendAsync(invoker, request).ConfigureAwait(false);
    }

    /// <summary>S3's send: the answer copied to nowhere.</summary>
    /// <returns>The answer's declared length.</returns>
    public static async Task<long> SendAsync(HttpMessageInvoker invoker, HttpRequestMessage request)
    {
        ArgumentNullException.ThrowIfNull(invoker);
        using HttpResponseMessage response = await invoker.SendAsync(request, CancellationToken.None).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        Stream stream = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
        await stream.CopyToAsync(Stream.Null).ConfigureAwait(false);
        return response.Content.Headers.ContentLength ?? 0;
    }
}
