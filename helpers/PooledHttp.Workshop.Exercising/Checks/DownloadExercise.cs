using System.Buffers;

namespace PooledHttp.Workshop.Checks;

/// <summary>
/// The learner's download (exercise 04): fetch <paramref name="url"/>, put the body in arrays
/// rented from <paramref name="pool"/>, hand it to <paramref name="received"/> once, return every array,
/// and return the body's length. A body longer than <paramref name="maxBytes"/> must be refused with an
/// exception, before it is handed over.
/// </summary>
public delegate Task<int> DownloadExercise(HttpClient client, Uri url, ArrayPool<byte> pool, int maxBytes, BodyReceived received, CancellationToken cancellationToken);
