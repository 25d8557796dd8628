using System.Net;

namespace PooledHttp.Exercises;

/// <summary>Exercise 06, worked: ask for HTTP/2, and refuse to fall back, since without TLS there is no negotiation to fall back through.</summary>
public static class E06_Http2Request
{
    /// <summary>A POST of <paramref name="content"/> to <paramref name="url"/> over HTTP/2 (h2c).</summary>
    public static HttpRequestMessage Create(Uri url, HttpContent content) => new(HttpMethod.Post, url)
    {
        Content = content,
        Version = HttpVersion.Version20,
        VersionPolicy = HttpVersionPolicy.RequestVersionExact,
    };
}
