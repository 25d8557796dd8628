namespace PooledHttp.Exercises;

// Exercise 06 · Chapter 06, "HTTP/2"
//
// Build the request that POSTs content to url over HTTP/2, to a server that speaks HTTP/2 without
// TLS (h2c) and nothing else. A request left at its defaults goes as HTTP/1.1 and fails there.
//
// The measurement sends S3's 100,000-byte POST with a new request built by your method each
// time, beside the chapter's rows. Stuck? tests/ExerciseSolutions/E06_Http2Request.cs.
public static class E06_Http2Request
{
    public static HttpRequestMessage Create(Uri url, HttpContent content)
    {
        throw new NotImplementedException("Build the HTTP/2 request.");
    }
}
