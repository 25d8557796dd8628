using System.Buffers;
using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Demos;

/// <summary>
/// S0's known-length read, and why it is wrong: <see cref="Stream.ReadAsync(Memory{byte}, CancellationToken)"/>
/// returns as soon as some bytes are there, so one call may deliver part of the body and nothing
/// says so. Chapter 04 runs both reads against a body the server sends in several writes.
/// </summary>
public static class KnownLengthPitfall
{
    /// <summary>S0's way: rent Content-Length bytes, call <c>ReadAsync</c> once, trust the result.</summary>
    /// <returns>What the single read got, compared with the declared length and the expected bytes.</returns>
    public static async Task<ReadOutcome> ReadOnceAsync(HttpClient client, Uri url, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(client);
        using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead, cancellationToken).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        int declared = checked((int)(response.Content.Headers.ContentLength ?? throw new InvalidOperationException("This read needs a Content-Length, and the response has none.")));
        byte[] buffer = ArrayPool<byte>.Shared.Rent(declared);
        try
        {
            Stream stream = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
            int read = await stream.ReadAsync(buffer.AsMemory(0, declared), cancellationToken).ConfigureAwait(false);
            return new ReadOutcome("one ReadAsync (S0)", declared, read, Payload.FirstMismatch(buffer.AsSpan(0, read)));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>The helpers' way: read until the declared length is full, or fail.</summary>
    public static async Task<ReadOutcome> ReadWholeAsync(HttpClient client, Uri url, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(client);
        using PooledBuffer body = await client.GetPooledAsync(url, cancellationToken: cancellationToken).ConfigureAwait(false);
        return new ReadOutcome("GetPooledAsync (helpers)", body.Length, body.Length, Payload.FirstMismatch(body.Span));
    }
}

/// <summary>What a read of a known-length body delivered.</summary>
/// <param name="How">The read's name.</param>
/// <param name="DeclaredLength">The Content-Length.</param>
/// <param name="BytesRead">The bytes the read delivered.</param>
/// <param name="FirstMismatch">The first delivered byte that differs from the server's pattern, or -1.</param>
public sealed record ReadOutcome(string How, int DeclaredLength, int BytesRead, int FirstMismatch)
{
    /// <summary>Whether the read delivered the whole body, intact.</summary>
    public bool IsWhole => BytesRead == DeclaredLength && FirstMismatch < 0;

    /// <inheritdoc />
    public override string ToString()
        => $"{How}: {BytesRead:N0} of {DeclaredLength:N0} bytes{(IsWhole ? ", the whole body" : FirstMismatch >= 0 ? $", corrupt at byte {FirstMismatch:N0}" : $", {DeclaredLength - BytesRead:N0} bytes missing and nothing said so")}";
}
