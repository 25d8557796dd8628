using System.Text;
using System.Text.Json;
using System.Xml.Linq;
using PooledHttp.Buffers;
using PooledHttp.Content;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Buffers;

/// <summary>
/// <see cref="PooledBufferStream"/> beside <see cref="MemoryStream"/> where the two are meant to agree: writing the
/// stream's own bytes into it, flushing after dispose (which writers that flush on their own disposal depend on); and
/// what a local limit throws: an exception that does not claim an HTTP failure, since no request exists yet.
/// </summary>
public class StreamContractTests
{
    [Fact]
    public void Writing_its_own_written_bytes_across_a_growth_copies_them_before_the_old_array_goes_back()
    {
        // A pool that poisons what comes back: a copy from a returned array reads the poison.
        var pool = new TrackingArrayPool();
        using var memory = new MemoryStream();
        memory.Write(Encoding.ASCII.GetBytes(new string('a', 200)));
        memory.Write(memory.GetBuffer().AsSpan(0, 200));

        using (var stream = new PooledBufferStream(pool: pool))
        {
            stream.Write(Encoding.ASCII.GetBytes(new string('a', 200)));
            int capacity = stream.Capacity;
            stream.Write(stream.WrittenSpan); // 400 bytes do not fit 256: the write grows the array
            Assert.True(stream.Capacity > capacity, "the second write should have grown the array");
            Assert.Equal(memory.ToArray(), stream.WrittenSpan.ToArray());
        }

        pool.AssertBalanced();
    }

    [Fact]
    public void Flush_after_dispose_succeeds_as_MemoryStreams_does_and_Read_and_Seek_still_throw()
    {
        var memory = new MemoryStream();
        memory.Dispose();
        memory.Flush();
        Assert.True(memory.FlushAsync().IsCompletedSuccessfully);

        var pool = new TrackingArrayPool();
        var stream = new PooledBufferStream(pool: pool);
        stream.Write("x"u8);
        stream.Dispose();
        stream.Flush();
        Assert.True(stream.FlushAsync().IsCompletedSuccessfully);
        Assert.Throws<ObjectDisposedException>(() => memory.Seek(0, SeekOrigin.Begin));
        Assert.Throws<ObjectDisposedException>(() => stream.Seek(0, SeekOrigin.Begin));
        Assert.Throws<ObjectDisposedException>(() => stream.Read(new byte[1]));
        pool.AssertBalanced();
    }

    [Fact]
    public void A_writer_that_flushes_on_its_own_disposal_outlives_DetachBuffer()
    {
        var pool = new TrackingArrayPool();
        var stream = new PooledBufferStream(pool: pool);
        PooledBuffer json;
        using (var writer = new Utf8JsonWriter((Stream)stream))
        {
            writer.WriteStartObject();
            writer.WriteNumber("order", 42);
            writer.WriteEndObject();
            writer.Flush();
            json = stream.DetachBuffer();
        }

        using (json)
        {
            Assert.Equal("""{"order":42}""", Encoding.UTF8.GetString(json.Span));
        }

        var text = new PooledBufferStream(pool: pool);
        using (var writer = new StreamWriter(text, leaveOpen: true))
        {
            writer.Write("hello");
            writer.Flush();
            text.Dispose();
        }

        pool.AssertBalanced();
    }

    [Fact]
    public void A_local_limit_is_not_reported_as_an_HTTP_failure()
    {
        var pool = new TrackingArrayPool();
        using (var stream = new PooledBufferStream(maxLength: 10, pool: pool))
        {
            Exception write = Assert.ThrowsAny<Exception>(() => stream.Write(new byte[11]));
            Assert.IsNotAssignableFrom<HttpRequestException>(write);
            Assert.IsType<BufferLimitExceededException>(write);
            Assert.Equal(10, ((BufferLimitExceededException)write).Limit);
            Assert.IsNotAssignableFrom<HttpRequestException>(Assert.ThrowsAny<Exception>(() => stream.GetMemory(100_000)));
        }

        Exception serialize = Assert.ThrowsAny<Exception>(() => PooledJsonContent.Create(new string('x', 100), options: null, pool: pool, maxBytes: 10));
        Assert.IsNotAssignableFrom<HttpRequestException>(serialize);
        Assert.Equal(10, Assert.IsType<BufferLimitExceededException>(serialize).Limit);
        pool.AssertBalanced();
    }

    [Fact]
    public void The_empty_lease_is_disposed_like_any_other_and_the_docs_say_so()
    {
        PooledBuffer empty = PooledBuffer.Empty;
        Assert.Equal(0, empty.Length);
        empty.Dispose();
        empty.Dispose();
        Assert.True(empty.IsDisposed);
        Assert.Throws<ObjectDisposedException>(() => empty.Length);
        Assert.False(PooledBuffer.Empty.IsDisposed); // a new lease each time: one caller's dispose reaches no other

        XDocument docs = XDocument.Load(Path.Combine(AppContext.BaseDirectory, "PooledHttp.xml"));
        string Doc(string member) => string.Join(' ', docs.Descendants("member").Single(m => (string?)m.Attribute("name") == member).Value
            .Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries));
        Assert.DoesNotContain("no-op", Doc("P:PooledHttp.Buffers.PooledBuffer.Empty"), StringComparison.Ordinal);

        // The class's remarks and ReadPooledAsync's own docs agree: it disposes nothing, and a disposed response throws.
        Assert.Contains("disposes nothing", Doc("T:PooledHttp.Http.PooledHttpClientExtensions"), StringComparison.Ordinal);
        Assert.DoesNotContain("is disposed before these methods return", Doc("T:PooledHttp.Http.PooledHttpClientExtensions"), StringComparison.Ordinal);
    }
}
