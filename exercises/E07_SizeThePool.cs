using System.Buffers;
using PooledHttp.Buffers;

namespace PooledHttp.Exercises;

// Exercise 07 · Chapter 07, "Under load"
//
// A service downloads downloadsInFlight bodies at once, each about bodySize bytes and sent without a
// Content-Length. Return the pool its pooled reads should rent from: one whose arrays the downloads find
// again once it is warm (no body allocated at steady state), and whose memory has a ceiling you chose.
//
// The check reads 64 overlapping 8 MiB downloads on your pool, then has 64 reads hold their arrays at once,
// twice, and counts the rents of the second time that found no free array. The measurement runs batches of
// 64 beside the chapter's rows; its goal is at most 16 KiB allocated per download.
// Stuck? tests/ExerciseSolutions/E07_SizeThePool.cs.
public static class E07_SizeThePool
{
    public static ArrayPool<byte> CreatePool(int downloadsInFlight, int bodySize)
    {
        throw new NotImplementedException("Size a pool for the load.");
    }
}
