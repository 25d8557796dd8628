using System.Net;
using System.Text.Json;
using Microsoft.IO;
using PooledHttp.Content;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Content;

/// <summary>
/// Every request content that owns pooled memory, disposed before, during and after it is sent. "During" holds
/// the destination mid-write, so the race is certain: the memory must stay the content's until the last write
/// has ended (SendAsync can return before that: dotnet/runtime issue #107082), and go back exactly once.
/// Another renter then fills whatever came back, so memory returned too early shows up as foreign bytes.
/// </summary>
public class ContentDisposalTests
{
    /// <summary>Large enough to span many of a stream manager's 128 KiB blocks.</summary>
    private const int BodyLength = 1_000_000;

    public enum Kind
    {
        PooledJson,
        RecyclableStream,
    }

    [Theory]
    [InlineData(Kind.PooledJson)]
    [InlineData(Kind.RecyclableStream)]
    public async Task Disposed_while_a_write_is_held_it_sends_its_own_bytes_and_gives_its_memory_back_after(Kind kind)
    {
        using var owner = new Owner(kind);
        HttpContent content = owner.Create();
        byte[] expected = Owner.Expected();
        var destination = new PausedStream();

        Task sending = content.CopyToAsync(destination);
        await destination.FirstWriteHeld.WaitAsync(TimeSpan.FromSeconds(30));
        content.Dispose();
        content.Dispose();
        Assert.True(owner.InUse > 0, "the content gave its memory back while a write was still reading it");
        owner.FillWhatCameBack();

        destination.Release();
        await sending.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(expected, destination.Written);
        owner.AssertAllBack();
    }

    [Theory]
    [InlineData(Kind.PooledJson)]
    [InlineData(Kind.RecyclableStream)]
    public async Task Disposed_before_it_is_sent_it_refuses_and_gives_its_memory_back_at_once(Kind kind)
    {
        using var owner = new Owner(kind);
        HttpContent content = owner.Create();
        content.Dispose();
        owner.AssertAllBack();
        await Assert.ThrowsAsync<ObjectDisposedException>(() => content.CopyToAsync(new MemoryStream()));
    }

    [Theory]
    [InlineData(Kind.PooledJson)]
    [InlineData(Kind.RecyclableStream)]
    public async Task Disposed_after_it_was_sent_twice_it_gives_its_memory_back_once(Kind kind)
    {
        using var owner = new Owner(kind);
        HttpContent content = owner.Create();
        byte[] expected = Owner.Expected();
        for (int i = 0; i < 2; i++)
        {
            using var copy = new MemoryStream();
            await content.CopyToAsync(copy);
            Assert.Equal(expected, copy.ToArray());
        }

        Assert.True(owner.InUse > 0);
        content.Dispose();
        content.Dispose();
        owner.AssertAllBack();
    }

    [Theory]
    [InlineData(Kind.PooledJson)]
    [InlineData(Kind.RecyclableStream)]
    public async Task Over_h2c_a_request_disposed_when_SendAsync_returns_still_sends_only_its_own_bytes(Kind kind)
    {
        // The server answers with its headers first and reads the body 200 ms later, so SendAsync returns while
        // nearly all of the body is still to go out (HTTP/2 flow control holds it). The caller then disposes
        // the request, as `using` does, and another renter fills whatever came back.
        await using H2cServer server = await H2cServer.StartAsync();
        using HttpClient client = H2cServer.Client();
        using var owner = new Owner(kind);
        byte[] expected = Owner.Expected();
        var request = new HttpRequestMessage(HttpMethod.Post, new Uri(server.Address, "late-reader?delayMs=200")) { Version = HttpVersion.Version20, VersionPolicy = HttpVersionPolicy.RequestVersionExact };
        request.Content = owner.Create();
        using HttpResponseMessage response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
        request.Dispose();
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        owner.FillWhatCameBack();

        // The response ends once the server has read the whole request body.
        await response.Content.ReadAsByteArrayAsync().WaitAsync(TimeSpan.FromSeconds(30));
        byte[] received = await WaitForAsync(server);
        Assert.Equal(expected.Length, received.Length);
        int foreign = received.Where((b, i) => b != expected[i]).Count();
        Assert.True(foreign == 0, $"{foreign:N0} of the {received.Length:N0} bytes the server received were not this request's");
        owner.AssertAllBack();
    }

    private static async Task<byte[]> WaitForAsync(H2cServer server)
    {
        for (int i = 0; i < 300; i++)
        {
            if (server.Received.TryDequeue(out byte[]? body))
            {
                return body;
            }

            await Task.Delay(100);
        }

        throw new TimeoutException("The server never received the whole body.");
    }

    /// <summary>The pool or stream manager a content rents from, with what a test needs to see of it.</summary>
    private sealed class Owner(Kind kind) : IDisposable
    {
        private static readonly string[] Words = [.. Enumerable.Range(0, BodyLength / 12).Select(i => $"word{i:D6}")];

        private readonly TrackingArrayPool _pool = new();
        private readonly RecyclableMemoryStreamManager _manager = new(new RecyclableMemoryStreamManager.Options { BlockSize = 128 * 1024 });
        private HttpContent? _content;

        /// <summary>Bytes of the pool or manager that are out, not free.</summary>
        public long InUse => kind == Kind.PooledJson ? _pool.Outstanding : _manager.SmallPoolInUseSize + _manager.LargePoolInUseSize;

        public HttpContent Create() => _content = kind == Kind.PooledJson
            ? PooledJsonContent.Create(Words, options: null, pool: _pool, maxBytes: int.MaxValue)
            : RecyclableStreamContent.CreateJson(Words, options: null, manager: _manager);

        public static byte[] Expected() => JsonSerializer.SerializeToUtf8Bytes(Words, PooledJson.Options);

        /// <summary>Another renter takes what is free and writes over it (the tracking pool also poisons every return).</summary>
        public void FillWhatCameBack()
        {
            if (kind == Kind.PooledJson)
            {
                for (int i = 0; i < 8; i++)
                {
                    byte[] rented = _pool.Rent(BodyLength);
                    Array.Fill(rented, (byte)0xEE);
                    _pool.Return(rented);
                }

                return;
            }

            using RecyclableMemoryStream other = _manager.GetStream();
            byte[] junk = new byte[4 * BodyLength];
            Array.Fill(junk, (byte)0xEE);
            other.Write(junk);
        }

        public void AssertAllBack()
        {
            if (kind == Kind.PooledJson)
            {
                _pool.AssertBalanced();
            }
            else
            {
                Assert.Equal(0, InUse);
            }
        }

        public void Dispose() => _content?.Dispose();
    }
}
