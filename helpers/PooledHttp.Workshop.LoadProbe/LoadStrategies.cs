using System.Buffers;
using Microsoft.IO;
using PooledHttp.Buffers;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Load;

/// <summary>
/// The downloads the load probe puts under load (chapters 04a, 07 and 09), by name, each checked byte for byte
/// against the server's pattern before it counts: the naive read, the pooled read on four pools, and two plain peers.
/// </summary>
/// <remarks>Run by this process (<c>Program.cs</c>), one strategy per run; <see cref="Names"/> is the list it
/// accepts, and what a notebook passes to the kit's launcher.</remarks>
public static class LoadStrategies
{
    /// <summary><c>SendAsync</c> + <c>ReadAsByteArrayAsync</c>.</summary>
    public const string Naive = "naive";

    /// <summary><c>GetPooledAsync</c> on the default pool, <see cref="BodyPool.Shared"/>.</summary>
    public const string Pooled = "pooled";

    /// <summary><c>GetPooledAsync</c> on <see cref="ArrayPool{T}.Shared"/>.</summary>
    public const string PooledOnShared = "pooled-shared";

    /// <summary><c>GetPooledAsync</c> on <c>BodyPool.Create(in flight, body size)</c>: a pool sized for the load.</summary>
    public const string PooledSized = "pooled-sized";

    /// <summary><c>GetPooledAsync</c> on a pool of four arrays per size (<c>ArrayPool.Create(64 MiB, 4)</c>): the body pool as it was before its budget alone governed it.</summary>
    public const string PooledFourPerSize = "pooled-4-per-size";

    /// <summary>A plain read loop into an array rented from <see cref="ArrayPool{T}.Shared"/>, grown through it when there is no length.</summary>
    public const string SharedRent = "shared-rent";

    /// <summary>The body copied into a <see cref="RecyclableMemoryStream"/> with <c>CopyToAsync</c>.</summary>
    public const string Recyclable = "recyclable";

    /// <summary>
    /// The floor no pool can beat: each worker reads into an array of its own, of the body's size, allocated once and
    /// kept for the whole run. It knows the body's size in advance, which no real read does.
    /// </summary>
    public const string Floor = "floor";

    /// <summary>Every strategy, in the order the chapter shows them.</summary>
    public static IReadOnlyList<string> Names { get; } = [Naive, Pooled, PooledOnShared, PooledSized, PooledFourPerSize, SharedRent, Recyclable, Floor];

    /// <summary>
    /// One download of <paramref name="url"/> by <paramref name="strategy"/>, for a load of <paramref name="inFlight"/>
    /// bodies of about <paramref name="bodySize"/> bytes. The returned function checks every body against the
    /// pattern and throws on the first wrong byte.
    /// </summary>
    /// <returns>What the strategy keeps between downloads (its pool), and the download.</returns>
    public static (object? Pool, Func<Task<int>> Download) Create(string strategy, HttpClient client, Uri url, int inFlight, int bodySize)
    {
        ArgumentNullException.ThrowIfNull(client);
        var check = new BodyCheck(bodySize);
        switch (strategy)
        {
            case Naive:
                return (null, () => NaiveAsync(client, url, check));
            case Pooled:
                return (BodyPool.Shared, () => PooledAsync(client, url, BodyPool.Shared, check));
            case PooledOnShared:
                return (ArrayPool<byte>.Shared, () => PooledAsync(client, url, ArrayPool<byte>.Shared, check));
            case PooledSized:
                BoundedArrayPool sized = BodyPool.Create(inFlight, bodySize);
                return (sized, () => PooledAsync(client, url, sized, check));
            case PooledFourPerSize:
                ArrayPool<byte> fourPerSize = ArrayPool<byte>.Create(BodyPool.MaxArrayLength, 4);
                return (fourPerSize, () => PooledAsync(client, url, fourPerSize, check));
            case SharedRent:
                return (ArrayPool<byte>.Shared, () => SharedRentAsync(client, url, check));
            case Recyclable:
                var manager = new RecyclableMemoryStreamManager(new RecyclableMemoryStreamManager.Options
                {
                    // Free pools bounded as PooledHttp.Content.RecyclableStreams bounds them, but large enough
                    // to keep every block of the load: the peer at its best.
                    MaximumSmallPoolFreeBytes = 2L * inFlight * Math.Max(bodySize, 128 * 1024),
                    MaximumLargePoolFreeBytes = 2L * inFlight * Math.Max(bodySize, 1024 * 1024),
                });
                return (manager, () => RecyclableAsync(client, url, manager, check));
            case Floor:
                var sinks = new System.Collections.Concurrent.ConcurrentBag<MemoryStream>();
                return (sinks, () => FloorAsync(client, url, sinks, bodySize, check));
            default:
                throw new ArgumentException($"Unknown strategy '{strategy}'; known: {string.Join(", ", Names)}.", nameof(strategy));
        }
    }

    private static async Task<int> NaiveAsync(HttpClient client, Uri url, BodyCheck check)
    {
        // As the benchmarks' Downloads.SendThenReadAsByteArrayAsync, S0's naive download, but keeping the body to check it.
        using var request = new HttpRequestMessage(HttpMethod.Get, url);
        using HttpResponseMessage response = await client.SendAsync(request).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        byte[] body = await response.Content.ReadAsByteArrayAsync().ConfigureAwait(false);
        return check.Whole(body);
    }

    private static async Task<int> PooledAsync(HttpClient client, Uri url, ArrayPool<byte> pool, BodyCheck check)
    {
        using PooledBuffer body = await Http.PooledHttpClientExtensions.GetPooledAsync(client, url, pool: pool).ConfigureAwait(false);
        return check.Whole(body.Span);
    }

    /// <summary>What most hand-written pooled reads look like: rent by Content-Length (or 16 KiB), read, double through the pool when full.</summary>
    private static async Task<int> SharedRentAsync(HttpClient client, Uri url, BodyCheck check)
    {
        ArrayPool<byte> pool = ArrayPool<byte>.Shared;
        using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        using Stream body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
        byte[] array = pool.Rent((int)(response.Content.Headers.ContentLength ?? 16 * 1024));
        try
        {
            int filled = 0;
            int read;
            while ((read = await body.ReadAsync(array.AsMemory(filled, Math.Min(Http.PooledBodyReader.ReadSize, array.Length - filled))).ConfigureAwait(false)) > 0)
            {
                filled += read;
                if (filled == array.Length)
                {
                    byte[] bigger = pool.Rent(array.Length * 2);
                    array.AsSpan(0, filled).CopyTo(bigger);
                    pool.Return(array);
                    array = bigger;
                }
            }

            return check.Whole(array.AsSpan(0, filled));
        }
        finally
        {
            pool.Return(array);
        }
    }

    private static async Task<int> FloorAsync(HttpClient client, Uri url, System.Collections.Concurrent.ConcurrentBag<MemoryStream> sinks, int bodySize, BodyCheck check)
    {
        using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        using Stream body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);

        // The same copy as the pooled read's (CopyToAsync), into a worker's own array of the body's size, kept for
        // the run: a stream over a fixed array, which refuses a byte past it.
        MemoryStream sink = sinks.TryTake(out MemoryStream? kept) ? kept : new MemoryStream(new byte[bodySize], 0, bodySize, writable: true, publiclyVisible: true);
        try
        {
            sink.Position = 0;
            await body.CopyToAsync(sink, Http.PooledBodyReader.ReadSize).ConfigureAwait(false);
            return check.Whole(sink.GetBuffer().AsSpan(0, (int)sink.Position));
        }
        finally
        {
            sinks.Add(sink);
        }
    }

    private static async Task<int> RecyclableAsync(HttpClient client, Uri url, RecyclableMemoryStreamManager manager, BodyCheck check)
    {
        using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        using Stream body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
        using RecyclableMemoryStream copy = manager.GetStream();
        await body.CopyToAsync(copy).ConfigureAwait(false);
        int offset = 0;
        foreach (ReadOnlyMemory<byte> segment in copy.GetReadOnlySequence())
        {
            check.Part(segment.Span, offset);
            offset += segment.Length;
        }

        return check.Whole(offset);
    }

    /// <summary>Compares bodies with the pattern the server sends, a whole span at a time (vectorized), so the check costs little beside the download.</summary>
    private sealed class BodyCheck(int bodySize)
    {
        private readonly byte[] _expected = Payload.Get(bodySize);

        public int Whole(ReadOnlySpan<byte> body)
        {
            Part(body, 0);
            return Whole(body.Length);
        }

        public int Whole(int length) => length == _expected.Length
            ? length
            : throw new InvalidDataException($"A body of {length:N0} bytes arrived; the server sent {_expected.Length:N0}.");

        public void Part(ReadOnlySpan<byte> part, int offset)
        {
            if (offset + part.Length > _expected.Length)
            {
                throw new InvalidDataException($"A body ran past the {_expected.Length:N0} bytes the server sent.");
            }

            if (!part.SequenceEqual(_expected.AsSpan(offset, part.Length)))
            {
                int wrong = Payload.FirstMismatch(part, offset);
                throw new InvalidDataException($"Byte {offset + wrong:N0} of a body is wrong: {part[wrong]}, not {Payload.At(offset + wrong)}.");
            }
        }
    }
}
