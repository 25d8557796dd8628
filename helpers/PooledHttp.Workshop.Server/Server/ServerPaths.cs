using System.Globalization;

namespace PooledHttp.Workshop.Server;

/// <summary>
/// The local server's paths and queries, relative to its base address: built here so that a benchmark (in
/// BenchmarkDotNet's process) and the server (in the notebook's) spell them the same way.
/// </summary>
public static class ServerPaths
{
    /// <summary>The path and query of <c>/bytes</c>: a body of <paramref name="size"/> bytes in <paramref name="writes"/> writes, with a Content-Length or chunked.</summary>
    public static string Bytes(int size, bool contentLength = false, int writes = 1, int skip = 0)
        => string.Create(CultureInfo.InvariantCulture, $"bytes?size={size}&length={(contentLength ? "true" : "false")}&writes={writes}") + (skip == 0 ? string.Empty : string.Create(CultureInfo.InvariantCulture, $"&skip={skip}"));

    /// <summary>The path and query of a paced <c>/bytes</c>: <paramref name="pace"/>'s writes, with its pauses between them.</summary>
    public static string PacedBytes(int size, bool contentLength, Pace pace)
        => Bytes(size, contentLength, pace.Writes) + string.Create(CultureInfo.InvariantCulture, $"&delayMs={pace.DelayMs}");

    /// <summary>The path and query of <c>/gzip</c>: <paramref name="size"/> pattern bytes, sent gzip-compressed, with the compressed length or chunked.</summary>
    public static string Gzip(int size, bool contentLength = false)
        => string.Create(CultureInfo.InvariantCulture, $"gzip?size={size}&length={(contentLength ? "true" : "false")}");
}
