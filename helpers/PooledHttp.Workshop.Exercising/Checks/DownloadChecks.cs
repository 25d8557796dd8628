using PooledHttp.Testing;
using System.Globalization;

namespace PooledHttp.Workshop.Checks;

/// <summary>The checks every learner download must pass, against a server the check process starts for itself.</summary>
internal static class DownloadChecks
{
    /// <summary>The limit the checks pass as <c>maxBytes</c>.</summary>
    private const int Limit = 4 * 1024 * 1024;

    /// <summary>Odd sizes, so a body that is a multiple of a buffer size proves nothing: empty, one byte, a few reads, many reads.</summary>
    private static readonly int[] Sizes = [0, 1, 16 * 1024 + 3, 1024 * 1024 + 7];

    /// <summary>
    /// Byte-exact at every size, chunked and with a Content-Length, the body also arriving in many small
    /// writes; every rented array back exactly once; a body over the limit refused, and nothing handed
    /// over. With <paramref name="inFlight"/> above one, that many downloads run at once on one pool.
    /// </summary>
    public static async Task<string> CheckAsync(DownloadExercise download, int inFlight, CancellationToken cancellationToken)
    {
        await using LocalServer server = LocalServer.Start();
        using var client = new HttpClient();
        foreach (bool contentLength in new[] { false, true })
        {
            string framing = contentLength ? "with a Content-Length" : "chunked";
            foreach (int size in Sizes)
            {
                await OneAsync(download, client, server.BytesUrl(size, contentLength), size, $"{Bytes(size)}, {framing}", cancellationToken).ConfigureAwait(false);
            }

            await OneAsync(download, client, server.BytesUrl(64 * 1024 + 1, contentLength, writes: 64), 64 * 1024 + 1, $"{Bytes(64 * 1024 + 1)} in 64 writes, {framing}", cancellationToken).ConfigureAwait(false);
            await RefusesAsync(download, client, server.BytesUrl(Limit + 1, contentLength), framing, cancellationToken).ConfigureAwait(false);
        }

        if (inFlight > 1)
        {
            var pool = new TrackingArrayPool();
            // Each body starts the pattern at a different place, so one body's bytes in another's array show.
            var all = Enumerable.Range(0, inFlight).Select(i => OneAsync(download, client, server.BytesUrl(256 * 1024 + i, contentLength: i % 2 == 0, skip: i % Payload.Period), 256 * 1024 + i, $"download {i + 1} of {inFlight} in flight", cancellationToken, pool, skip: i % Payload.Period));
            await Task.WhenAll(all).ConfigureAwait(false);
            Balanced(pool, $"{inFlight} downloads in flight on one pool");
        }

        return $"Bytes exact from 0 B to {Bytes(Sizes[^1])}, chunked and with a Content-Length, also when the body arrives in 64 writes"
            + (inFlight > 1 ? $" and with {inFlight} downloads in flight on one pool" : string.Empty)
            + $"; every rented array returned exactly once; a body over maxBytes ({Bytes(Limit)}) refused before it was handed over.";
    }

    private static async Task OneAsync(DownloadExercise download, HttpClient client, Uri url, int size, string what, CancellationToken cancellationToken, TrackingArrayPool? shared = null, int skip = 0)
    {
        TrackingArrayPool pool = shared ?? new TrackingArrayPool();
        int calls = 0;
        int length = -1;
        int mismatch = -1;
        int returned = await download(client, url, pool, Limit, body =>
        {
            calls++;
            length = body.Length;
            mismatch = Payload.FirstMismatch(body, skip);
        }, cancellationToken).ConfigureAwait(false);

        if (calls != 1)
        {
            throw new ExerciseCheckFailedException($"{what}: the body was handed to received {calls} times; hand it over exactly once, whole.");
        }

        if (length != size)
        {
            throw new ExerciseCheckFailedException($"{what}: received got {Bytes(length)}, the server sent {Bytes(size)}.");
        }

        if (mismatch >= 0)
        {
            throw new ExerciseCheckFailedException($"{what}: byte {mismatch:N0} differs from what the server sent. A read that lands at the wrong offset, or an array used after it went back to the pool ({TrackingArrayPool.Poison:X2} bytes), looks like this.");
        }

        if (returned != size)
        {
            throw new ExerciseCheckFailedException($"{what}: returned {returned:N0}; return the body's length, {size:N0}.");
        }

        if (shared is null)
        {
            Balanced(pool, what);
        }
    }

    private static async Task RefusesAsync(DownloadExercise download, HttpClient client, Uri url, string framing, CancellationToken cancellationToken)
    {
        var pool = new TrackingArrayPool();
        bool handedOver = false;
        try
        {
            await download(client, url, pool, Limit, _ => handedOver = true, cancellationToken).ConfigureAwait(false);
            throw new ExerciseCheckFailedException($"A body of {Bytes(Limit + 1)}, {framing}, one byte over maxBytes, was accepted: refuse it with an exception.");
        }
        catch (Exception e) when (e is not ExerciseCheckFailedException and not NotImplementedException)
        {
            // Refused, as asked: what matters next is that nothing leaked on the way out.
        }

        if (handedOver)
        {
            throw new ExerciseCheckFailedException($"A body over maxBytes, {framing}, was handed to received before it was refused.");
        }

        Balanced(pool, $"refusing a body over maxBytes, {framing}");
    }

    private static void Balanced(TrackingArrayPool pool, string what)
    {
        if (pool.Imbalance is { } problem)
        {
            throw new ExerciseCheckFailedException($"{what}: {problem}. Return each rented array exactly once, on every path (a try/finally does it).");
        }
    }

    private static string Bytes(long bytes) => string.Create(CultureInfo.InvariantCulture, $"{bytes:N0} B");
}
