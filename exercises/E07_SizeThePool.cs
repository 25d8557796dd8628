using System.Buffers;
using PooledHttp.Buffers;

namespace PooledHttp.Exercises;

// Exercise 07 · Chapter 07, "Under load"
//
// A service downloads downloadsInFlight bodies at once, each about bodySize bytes and sent without a
// Content-Length. Return the pool its pooled reads should rent from: one whose arrays the downloads find
// again once it is warm (no body allocated at steady state), and whose memory has a ceiling you chose.
//
// The check runs two rounds of 64 overlapping 4 MiB downloads on your pool and counts the rents of the
// second round that found no free array. The measurement runs batches of 64 beside the chapter's rows;
// its goal is no Gen2 collection and at most 16 KiB allocated per download.
// Stuck? tests/ExerciseSolutions/E07_SizeThePool.cs.
public static class E07_SizeThePool
{
    public static ArrayPool<byte> CreatePool(int downloadsInFlight, int bodySize)
    {
        throw new NotImplementedException("Size a pool for the load.");
    }
}
