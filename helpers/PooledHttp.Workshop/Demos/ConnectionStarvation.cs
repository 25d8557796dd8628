using System.Diagnostics;

namespace PooledHttp.Workshop.Demos;

/// <summary>
/// What an undisposed <see cref="HttpResponseMessage"/> read with <c>ResponseHeadersRead</c> costs:
/// its connection stays taken. With a pool of one connection, the next request waits for it, and
/// only a timeout ends the wait. Chapters 03 and 04 run it.
/// </summary>
public static class ConnectionStarvation
{
    /// <summary>
    /// Sends a request and leaves its response undisposed, sends a second one that may wait at most
    /// <paramref name="patience"/>, then disposes the first response and sends a third.
    /// </summary>
    /// <param name="url">A body long enough not to be read by accident (1 MiB, say).</param>
    /// <param name="patience">How long the second request may wait before it is cancelled.</param>
    public static async Task<StarvationOutcome> DemonstrateAsync(Uri url, TimeSpan patience)
    {
        using var handler = new SocketsHttpHandler { MaxConnectionsPerServer = 1 };
        using var client = new HttpClient(handler);

        HttpResponseMessage forgotten = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        bool starved;
        using (var timeout = new CancellationTokenSource(patience))
        {
            try
            {
                using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead, timeout.Token).ConfigureAwait(false);
                starved = false;
            }
            catch (OperationCanceledException) when (timeout.IsCancellationRequested)
            {
                starved = true;
            }
        }

        forgotten.Dispose();
        var clock = Stopwatch.StartNew();
        using HttpResponseMessage third = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        return new StarvationOutcome(starved, patience, (int)third.StatusCode, clock.Elapsed);
    }
}

/// <summary>What happened to the requests that followed an undisposed response.</summary>
/// <param name="SecondWasStarved">Whether the second request, sent while the first response was undisposed, was still waiting when its patience ran out.</param>
/// <param name="Patience">How long the second request waited.</param>
/// <param name="ThirdStatus">The status of the third request, sent after disposing the first response.</param>
/// <param name="ThirdTook">How long the third request took.</param>
public sealed record StarvationOutcome(bool SecondWasStarved, TimeSpan Patience, int ThirdStatus, TimeSpan ThirdTook)
{
    /// <inheritdoc />
    public override string ToString()
        => (SecondWasStarved
               ? $"Second request, first response undisposed: still waiting for the only connection after {Patience.TotalSeconds:0.#} s, cancelled."
               : "Second request, first response undisposed: answered (the connection was free after all).")
           + Environment.NewLine
           + $"Third request, first response disposed: status {ThirdStatus} after {ThirdTook.TotalMilliseconds:0} ms.";
}
