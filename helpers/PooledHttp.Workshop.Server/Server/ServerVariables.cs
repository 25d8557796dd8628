namespace PooledHttp.Workshop.Server;

/// <summary>
/// The environment variables that carry a server's address to a process that downloads from it (a benchmark,
/// an exercise's benchmark): set by the server's owner on the job, read by <c>BenchmarkServer</c>.
/// </summary>
public static class ServerVariables
{
    /// <summary>The <see cref="LocalServer"/>'s base address.</summary>
    public const string Address = "POOLEDHTTP_SERVER";

    /// <summary>Chapter 06's HTTP/2 (h2c) address.</summary>
    public const string Http2Address = "POOLEDHTTP_H2";

    /// <summary>Chapter 06's HTTP/1.1 address.</summary>
    public const string Http11Address = "POOLEDHTTP_H1";

    /// <summary>Chapter 09's HTTP/2 (h2c) address, serving <c>/bytes</c>: another server than chapter 06's, so both can run at once.</summary>
    public const string WireHttp2Address = "POOLEDHTTP_WIRE_H2";

    /// <summary>Chapter 09's HTTPS address (HTTP/1.1 over TLS).</summary>
    public const string HttpsAddress = "POOLEDHTTP_HTTPS";

    /// <summary>Chapter 09's certificate for that address, base64 DER: the one certificate a benchmark's client trusts.</summary>
    public const string HttpsCertificate = "POOLEDHTTP_HTTPS_CERT";
}
