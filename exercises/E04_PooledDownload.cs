using System.Buffers;

namespace PooledHttp.Exercises;

// Exercise 04 · Chapter 04, "Pooled buffers"
//
// Download url into arrays rented from pool, hand the whole body to received exactly once (one
// span), return every array to the pool, and return the body's length. A body longer than maxBytes
// must be refused with an exception before it is handed over. The goal of the measurement: a
// 16 MiB chunked body for under 16 KiB allocated per download. It leaves room for HttpClient's own
// allocations and for noise, yet a fresh 16 KiB buffer per download misses it. (Chapter 04 asks for
// your guess first: write it down before you measure.)
//
// The check runs your code against bodies from 0 B to 1 MiB, chunked and with a Content-Length,
// also arriving in 64 small writes, with a tracking pool that poisons every returned array and
// reports any array returned twice or never. It is allowed to call the library's GetPooledAsync,
// and it will pass; writing it yourself is the exercise.
//
// Hints: ResponseHeadersRead; a chunked body has no length, so grow (rent bigger, copy, return the
// old one); a try/finally returns the array on every path. Stuck? tests/ExerciseSolutions/E04_PooledDownload.cs.
public static class E04_PooledDownload
{
    public static async Task<int> DownloadAsync(HttpClient client, Uri url, ArrayPool<byte> pool, int maxBytes, PooledHttp.Workshop.Checks.BodyReceived received, CancellationToken cancellationToken)
    {
        await Task.CompletedTask;
        throw new NotImplementedException("Write the pooled download.");
    }
}
