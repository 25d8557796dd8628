using PooledHttp.Buffers;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Buffers;

public class PooledBufferTests
{
    [Fact]
    public void Exposes_only_the_data_not_the_rented_tail()
    {
        var pool = new TrackingArrayPool();
        byte[] array = pool.Rent(10); // 16 bytes
        var lease = new PooledBuffer(pool, array, 10);
        Assert.Equal(10, lease.Length);
        Assert.Equal(10, lease.Memory.Length);
        Assert.Equal(10, lease.Span.Length);
        lease.Dispose();
        pool.AssertBalanced();
    }

    [Fact]
    public void Use_after_dispose_throws_and_dispose_is_idempotent()
    {
        var pool = new TrackingArrayPool();
        var lease = new PooledBuffer(pool, pool.Rent(8), 8);
        lease.Dispose();
        lease.Dispose();
        Assert.True(lease.IsDisposed);
        Assert.Throws<ObjectDisposedException>(() => lease.Memory);
        Assert.Throws<ObjectDisposedException>(() => lease.Span.Length);
        Assert.Throws<ObjectDisposedException>(() => lease.Length);
        Assert.Throws<ObjectDisposedException>(() => lease.ToArray());
        Assert.Equal(1, pool.Returns);
        pool.AssertBalanced();
    }

    [Fact]
    public async Task Racing_disposals_return_the_array_once()
    {
        var pool = new TrackingArrayPool();
        for (int i = 0; i < 200; i++)
        {
            var lease = new PooledBuffer(pool, pool.Rent(64), 64);
            await Task.WhenAll(Enumerable.Range(0, 4).Select(_ => Task.Run(lease.Dispose)));
        }

        pool.AssertBalanced();
    }
}
