using System.Buffers;
using PooledHttp.Buffers;
using PooledHttp.Workshop.Server;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Buffers;

public class PooledBufferStreamTests
{
    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(255)]
    [InlineData(4097)]
    [InlineData(1_000_003)]
    public void Holds_exactly_what_was_written_across_growth(int size)
    {
        var pool = new TrackingArrayPool();
        var expected = new byte[size];
        Payload.Fill(expected);

        using (var stream = new PooledBufferStream(pool: pool))
        {
            // Odd-sized writes force several growths and copies.
            for (int offset = 0; offset < size; offset += 777)
            {
                stream.Write(expected.AsSpan(offset, Math.Min(777, size - offset)));
            }

            Assert.Equal(size, stream.Length);
            Assert.True(stream.WrittenSpan.SequenceEqual(expected));
            Assert.True(stream.WrittenMemory.Span.SequenceEqual(expected));
            Assert.Equal(size, stream.GetReadOnlySequence().Length);
        }

        pool.AssertBalanced();
        if (size > 256)
        {
            Assert.True(pool.Rents > 1, "growth should have rented more than once");
        }
    }

    [Fact]
    public void Writing_past_the_limit_throws_naming_the_limit_and_keeps_what_fit()
    {
        var pool = new TrackingArrayPool();
        using (var stream = new PooledBufferStream(maxLength: 1000, pool: pool))
        {
            stream.Write(new byte[600]);
            var error = Assert.Throws<BufferLimitExceededException>(() => stream.Write(new byte[401]));
            Assert.Equal(1000, error.Limit);
            Assert.Contains("1,000 bytes", error.Message, StringComparison.Ordinal);
            Assert.Equal(600, stream.Length);
            stream.Write(new byte[400]);
            Assert.Equal(1000, stream.Length);
            Assert.Throws<BufferLimitExceededException>(() => stream.GetMemory(1));
        }

        pool.AssertBalanced();
    }

    [Fact]
    public void Never_asks_the_pool_for_more_than_the_limit()
    {
        // 9 MB written under a 10 MB limit (decimal: 10,000,000 B): doubling alone would ask for 16 MiB. What
        // the pool hands back is its business (a power-of-two pool rounds 10 MB up to 16 MiB); what this stream asks for is not.
        const int Limit = 10_000_000;
        var pool = new TrackingArrayPool();
        using (var stream = new PooledBufferStream(maxLength: Limit, pool: pool))
        {
            for (int i = 0; i < 9; i++)
            {
                stream.Write(new byte[1_000_000]);
            }

            Assert.Equal(9_000_000, stream.Length);
        }

        Assert.InRange(pool.LargestRequest, 9_000_000, Limit);
        pool.AssertBalanced();
    }

    [Fact]
    public void Initial_capacity_above_the_limit_is_refused_before_renting()
    {
        var pool = new TrackingArrayPool();
        Assert.Throws<ArgumentOutOfRangeException>(() => new PooledBufferStream(maxLength: 10, initialCapacity: 11, pool: pool));
        Assert.Equal(0, pool.Rents);
    }

    [Fact]
    public void Buffer_writer_contract_appends_what_was_advanced()
    {
        var pool = new TrackingArrayPool();
        using (var stream = new PooledBufferStream(pool: pool))
        {
            IBufferWriter<byte> writer = stream;
            Span<byte> span = writer.GetSpan(10);
            Assert.True(span.Length >= 10);
            "hello"u8.CopyTo(span);
            writer.Advance(5);
            Memory<byte> memory = writer.GetMemory(3);
            " world"u8.CopyTo(memory.Span);
            writer.Advance(6);
            Assert.Equal("hello world"u8.ToArray(), stream.WrittenSpan.ToArray());
            Assert.Throws<InvalidOperationException>(() => writer.Advance(1_000_000));
        }

        pool.AssertBalanced();
    }

    [Fact]
    public void Every_member_throws_ObjectDisposedException_after_dispose_and_dispose_twice_returns_once()
    {
        var pool = new TrackingArrayPool();
        var stream = new PooledBufferStream(initialCapacity: 100, pool: pool);
        stream.Write(new byte[50]);
        stream.Dispose();
        stream.Dispose();

        Assert.Throws<ObjectDisposedException>(() => stream.WrittenMemory);
        Assert.Throws<ObjectDisposedException>(() => stream.WrittenSpan.Length);
        Assert.Throws<ObjectDisposedException>(() => stream.Length);
        Assert.Throws<ObjectDisposedException>(() => stream.Write(new byte[1]));
        Assert.Throws<ObjectDisposedException>(() => stream.GetMemory());
        Assert.Throws<ObjectDisposedException>(() => stream.Advance(0));
        Assert.Throws<ObjectDisposedException>(() => stream.DetachBuffer());
        Assert.False(stream.CanWrite);
        Assert.Equal(1, pool.Returns);
        pool.AssertBalanced();
    }

    [Fact]
    public void DetachBuffer_moves_ownership_to_the_lease()
    {
        var pool = new TrackingArrayPool();
        var stream = new PooledBufferStream(pool: pool);
        stream.Write("abc"u8);
        PooledBuffer lease = stream.DetachBuffer();
        stream.Dispose(); // owns nothing now
        Assert.Equal(1, pool.Outstanding);
        Assert.Equal("abc"u8.ToArray(), lease.ToArray());
        lease.Dispose();
        pool.AssertBalanced();
    }

    [Fact]
    public void Is_write_only()
    {
        using var stream = new PooledBufferStream();
        Assert.False(stream.CanRead);
        Assert.False(stream.CanSeek);
        Assert.Throws<NotSupportedException>(() => stream.Read(new byte[1], 0, 1));
        Assert.Throws<NotSupportedException>(() => stream.Seek(0, SeekOrigin.Begin));
    }

    [Fact]
    public void After_dispose_every_member_but_Dispose_Flush_and_the_Can_properties_throws_ObjectDisposedException()
    {
        var stream = new PooledBufferStream(pool: new TrackingArrayPool());
        stream.Write("abc"u8);
        stream.Dispose();

        stream.Flush(); // as MemoryStream's: writers that flush on their own disposal depend on it
        Assert.Throws<ObjectDisposedException>(() => stream.Read(new byte[1], 0, 1));
        Assert.Throws<ObjectDisposedException>(() => stream.Read(new byte[1].AsSpan()));
        Assert.Throws<ObjectDisposedException>(() => stream.ReadByte());
        Assert.Throws<ObjectDisposedException>(() => stream.Seek(0, SeekOrigin.Begin));
        Assert.Throws<ObjectDisposedException>(() => stream.SetLength(0));
        Assert.Throws<ObjectDisposedException>(() => stream.Position);
        Assert.Throws<ObjectDisposedException>(() => stream.Position = 0);
        Assert.Throws<ObjectDisposedException>(() => stream.Length);
        Assert.Throws<ObjectDisposedException>(() => stream.Write("d"u8));
        Assert.Throws<ObjectDisposedException>(() => stream.WrittenSpan.Length);
        Assert.Throws<ObjectDisposedException>(() => stream.GetMemory());
        Assert.Throws<ObjectDisposedException>(() => stream.DetachBuffer());
        Assert.False(stream.CanWrite);
        stream.Dispose();
    }

    [Fact]
    public async Task After_dispose_the_asynchronous_members_fail_through_their_task()
    {
        var stream = new PooledBufferStream(pool: new TrackingArrayPool());
        stream.Dispose();

        // Started, not awaited: a failure must be in the task, never thrown at the call.
        Task flush = stream.FlushAsync(CancellationToken.None);
        Task write = stream.WriteAsync(new byte[1], 0, 1, CancellationToken.None);
        Task writeMemory = stream.WriteAsync(new byte[1].AsMemory()).AsTask();
        Task<int> read = stream.ReadAsync(new byte[1], 0, 1, CancellationToken.None);

        await flush; // succeeds, as MemoryStream's does
        await Assert.ThrowsAsync<ObjectDisposedException>(() => write);
        await Assert.ThrowsAsync<ObjectDisposedException>(() => writeMemory);
        await Assert.ThrowsAsync<ObjectDisposedException>(() => read);
    }

    [Fact]
    public async Task A_cancelled_token_and_the_limit_fail_through_the_task_as_MemoryStreams_do()
    {
        var pool = new TrackingArrayPool();
        using var stream = new PooledBufferStream(maxLength: 4, pool: pool);
        using var cancelled = new CancellationTokenSource();
        await cancelled.CancelAsync();

        Task flush = stream.FlushAsync(cancelled.Token);
        Task write = stream.WriteAsync(new byte[1], 0, 1, cancelled.Token);
        Task writeMemory = stream.WriteAsync(new byte[1].AsMemory(), cancelled.Token).AsTask();
        Task tooMuch = stream.WriteAsync(new byte[5], 0, 5, CancellationToken.None);
        Task tooMuchMemory = stream.WriteAsync(new byte[5].AsMemory()).AsTask();

        Assert.True(flush.IsCanceled && write.IsCanceled && writeMemory.IsCanceled, "a cancelled token gives a cancelled task");
        await Assert.ThrowsAsync<BufferLimitExceededException>(() => tooMuch);
        await Assert.ThrowsAsync<BufferLimitExceededException>(() => tooMuchMemory);
        Assert.Equal(0, stream.Length);

        // Argument errors throw at the call.
        Assert.Throws<ArgumentNullException>(() => Started(stream.WriteAsync(null!, 0, 1, CancellationToken.None)));
        Assert.Throws<ArgumentOutOfRangeException>(() => Started(stream.WriteAsync(new byte[1], 0, 2, CancellationToken.None)));
    }

    /// <summary>Stands for a call whose task nobody awaits: what it throws, it throws at the call.</summary>
    private static void Started(Task call)
    {
        Assert.NotNull(call);
    }
}
