namespace PooledHttp.Workshop.Benchmarks;

/// <summary>The HTTP version a benchmark speaks to <c>Http2Server</c>.</summary>
public enum HttpProtocol
{
    /// <summary>HTTP/1.1 over its own port.</summary>
    Http11,

    /// <summary>HTTP/2 without TLS, prior knowledge (h2c).</summary>
    Http2,
}
