using System.Buffers;
using PooledHttp.Buffers;

namespace PooledHttp.Exercises;

/// <summary>
/// Exercise 07, worked: the budget is the bodies in flight times their size, rounded up to the pool's power of
/// two, plus half again for the smaller arrays a body without a Content-Length grows through. That is what
/// <see cref="BodyPool.Create"/> computes.
/// </summary>
public static class E07_SizeThePool
{
    /// <summary>A pool for <paramref name="downloadsInFlight"/> bodies of about <paramref name="bodySize"/> bytes at once.</summary>
    public static ArrayPool<byte> CreatePool(int downloadsInFlight, int bodySize)
        => BodyPool.Create(downloadsInFlight, bodySize);
}
