using System.Collections.Concurrent;

namespace PooledHttp.Workshop.Server;

/// <summary>
/// The bytes the local server sends for a body of a given size: a fixed pattern, so a client can
/// check a download byte for byte without keeping a copy of what was sent.
/// </summary>
public static class Payload
{
    /// <summary>A prime period, so an off-by-a-power-of-two slip (a lost 4 KiB chunk) never lines up.</summary>
    internal const int Period = 251;

    private static readonly ConcurrentDictionary<int, byte[]> Cache = new();

    /// <summary>The byte at <paramref name="offset"/> of every payload.</summary>
    public static byte At(long offset) => (byte)(offset % Period);

    /// <summary>Fills <paramref name="destination"/> with the pattern, as if it started at <paramref name="offset"/>.</summary>
    public static void Fill(Span<byte> destination, long offset = 0)
    {
        for (int i = 0; i < destination.Length; i++)
        {
            destination[i] = At(offset + i);
        }
    }

    /// <summary>Returns the index of the first byte that does not match the pattern (started at <paramref name="offset"/>), or -1 when all do.</summary>
    public static int FirstMismatch(ReadOnlySpan<byte> data, int offset = 0)
    {
        for (int i = 0; i < data.Length; i++)
        {
            if (data[i] != At(offset + i))
            {
                return i;
            }
        }

        return -1;
    }

    /// <summary>
    /// The payload of <paramref name="size"/> bytes, built once per size and shared: the server sends
    /// it many times and must not add garbage of its own per request.
    /// </summary>
    internal static byte[] Get(int size) => Cache.GetOrAdd(size, static n =>
    {
        var bytes = GC.AllocateUninitializedArray<byte>(n);
        Fill(bytes);
        return bytes;
    });
}
