namespace PooledHttp.Workshop.Benchmarks;

/// <summary>How the server frames a body, which decides how much the client knows before it reads.</summary>
public enum Framing
{
    /// <summary>No Content-Length: <c>Transfer-Encoding: chunked</c>, the length is known only at the end (S0's server).</summary>
    Chunked,

    /// <summary>A Content-Length header: the client can size one array up front.</summary>
    ContentLength,
}
