using System.Buffers;

namespace PooledHttp.Exercises;

// Exercise 07 · Chapter 07, "Under load"
//
// The same contract as exercise 04, now with 64 downloads in flight at once on one pool: download
// url into arrays rented from pool, hand the body to received once, return every array, return the
// length, refuse a body over maxBytes. The goal of the measurement: no Gen2 collection while
// batches of 64 run.
//
// The check adds 64 concurrent downloads on one tracking pool: state shared between calls (a
// static buffer, say) shows up as wrong bytes. You may start from your exercise 04.
// Stuck? tests/ExerciseSolutions/E07_UnderLoad.cs.
public static class E07_UnderLoad
{
    public static async Task<int> DownloadAsync(HttpClient client, Uri url, ArrayPool<byte> pool, int maxBytes, PooledHttp.Exercising.BodyReceived received, CancellationToken cancellationToken)
    {
        await Task.CompletedTask;
        throw new NotImplementedException("Write the download that holds up under load.");
    }
}
