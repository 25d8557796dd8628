using System.Buffers;
using PooledHttp.Workshop.Checks;

namespace PooledHttp.Exercises;

/// <summary>Exercise 04, worked: one rented array, grown by doubling when the body has no length.</summary>
public static class E04_PooledDownload
{
    /// <summary>What each read asks for: small reads keep the runtime's own allocations down (see the library's PooledBodyReader).</summary>
    private const int ReadSize = 16 * 1024;

    /// <summary>What a read past a full array asks for: small, since most of the time the body has just ended.</summary>
    private const int SpillSize = 4 * 1024;

    /// <summary>Downloads <paramref name="url"/> into pooled arrays and hands the body to <paramref name="received"/> once.</summary>
    public static async Task<int> DownloadAsync(HttpClient client, Uri url, ArrayPool<byte> pool, int maxBytes, BodyReceived received, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(client);
        ArgumentNullException.ThrowIfNull(pool);
        ArgumentNullException.ThrowIfNull(received);
        using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead, cancellationToken).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        long? declared = response.Content.Headers.ContentLength;
        if (declared > maxBytes)
        {
            throw new InvalidDataException($"The body declares {declared} bytes; the limit is {maxBytes}.");
        }

        byte[] array = pool.Rent((int)Math.Max(declared ?? ReadSize, 1));
        try
        {
            await using Stream body = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
            int filled = 0;
            while (true)
            {
                int read;
                if (filled < array.Length)
                {
                    read = await body.ReadAsync(array.AsMemory(filled, Math.Min(ReadSize, array.Length - filled)), cancellationToken).ConfigureAwait(false);
                }
                else
                {
                    // Full. Many bodies are exactly 2^k bytes: read a little elsewhere first, so that a body
                    // which has just ended never makes us rent, and copy into, twice its size.
                    (read, array) = await ReadPastFullAsync(body, pool, array, filled, maxBytes, cancellationToken).ConfigureAwait(false);
                }

                if (read == 0)
                {
                    break;
                }

                filled += read;
                if (filled > maxBytes)
                {
                    throw new InvalidDataException($"The body is longer than the limit of {maxBytes} bytes.");
                }
            }

            received(array.AsSpan(0, filled));
            return filled;
        }
        finally
        {
            pool.Return(array);
        }
    }

    /// <summary>
    /// Reads into a small rented array; only when bytes arrive does the body's array grow (rent twice the
    /// size, copy, return the old one exactly once) and take them. Returns the bytes read and the array
    /// that now holds the body.
    /// </summary>
    private static async Task<(int Read, byte[] Array)> ReadPastFullAsync(Stream body, ArrayPool<byte> pool, byte[] array, int filled, int maxBytes, CancellationToken cancellationToken)
    {
        byte[] spill = pool.Rent(SpillSize);
        try
        {
            int read = await body.ReadAsync(spill.AsMemory(0, SpillSize), cancellationToken).ConfigureAwait(false);
            if (read > 0)
            {
                byte[] bigger = pool.Rent((int)Math.Min(Math.Max(array.Length * 2L, filled + (long)read), maxBytes + (long)SpillSize));
                array.AsSpan(0, filled).CopyTo(bigger);
                spill.AsSpan(0, read).CopyTo(bigger.AsSpan(filled));
                pool.Return(array);
                return (read, bigger);
            }

            return (0, array);
        }
        finally
        {
            pool.Return(spill);
        }
    }
}
