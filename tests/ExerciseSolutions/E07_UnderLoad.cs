using System.Buffers;
using PooledHttp.Exercising;

namespace PooledHttp.Exercises;

/// <summary>
/// Exercise 07, worked: exercise 04's download as it is. It keeps nothing between calls (every array
/// is rented per call and returned in a finally), so 64 calls in flight cannot trip over each other.
/// </summary>
public static class E07_UnderLoad
{
    /// <summary>As <see cref="E04_PooledDownload.DownloadAsync"/>.</summary>
    public static Task<int> DownloadAsync(HttpClient client, Uri url, ArrayPool<byte> pool, int maxBytes, BodyReceived received, CancellationToken cancellationToken)
        => E04_PooledDownload.DownloadAsync(client, url, pool, maxBytes, received, cancellationToken);
}
