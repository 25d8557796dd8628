namespace PooledHttp.Workshop.Benchmarks;

/// <summary>What chapter 09's bodies cross on their way: compression, TLS or HTTP/2.</summary>
public enum Wire
{
    /// <summary>HTTP/1.1, the body gzip-compressed by the server and decompressed by the handler (<c>AutomaticDecompression</c>).</summary>
    Gzip,

    /// <summary>HTTP/1.1 over TLS, with a certificate made for the run and trusted by the measured client only.</summary>
    Https,

    /// <summary>HTTP/2 without TLS (h2c), asked for with <c>RequestVersionExact</c>.</summary>
    Http2,

    /// <summary>
    /// HTTP/2 as above, in a process where the runtime's dynamic HTTP/2 window sizing is switched off
    /// (<see cref="WireDownloads.FixedWindowSwitch"/>): the stream's receive window stays at its initial size.
    /// </summary>
    Http2FixedWindow,
}
