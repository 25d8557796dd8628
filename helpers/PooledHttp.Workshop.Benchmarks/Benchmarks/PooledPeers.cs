using System.Buffers;
using System.IO.Pipelines;
using BenchmarkDotNet.Attributes;
using CommunityToolkit.HighPerformance.Buffers;
using Microsoft.IO;
using PooledHttp.Content;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 04a's floor and the pooled read's peers. The floor is what <see cref="HttpClient"/> costs per
/// request with no body allocation at all: headers read, the body streamed into one array allocated
/// once for the whole run. Everything a strategy allocates above it is the strategy's own cost. The
/// peers are what a reader would reach for instead of the pooled read.
/// </summary>
public class PooledPeers : DownloadBenchmark
{
    /// <summary>What the buffer-writer loop asks for per read: the same as the floor and the pooled read.</summary>
    public const int ReadSize = Http.PooledBodyReader.ReadSize;

    private Uri _url = null!;
    private byte[] _floor = null!;

    /// <summary>The body size in bytes: 64 KiB to 64 MiB, three sizes, so that appendix 04a stays under three minutes (40 cases with 16 MiB took 167 s).</summary>
    [Params(64 * 1024, 1024 * 1024, 64 * 1024 * 1024)]
    public int Size { get; set; }

    /// <summary>Chunked, or with a Content-Length.</summary>
    [Params(Framing.Chunked, Framing.ContentLength)]
    public Framing Framing { get; set; }

    /// <summary>The floor: <c>ResponseHeadersRead</c> into one preallocated array, no pool, no copy.</summary>
    [Benchmark(Baseline = true)]
    public Task<int> Floor() => Downloads.FloorAsync(Client, _url, _floor);

    /// <summary>The library's pooled read.</summary>
    [Benchmark]
    public Task<int> PooledRead() => Downloads.PooledReadAsync(Client, _url);

    /// <summary>The body copied into a RecyclableMemoryStream with <c>CopyToAsync</c>.</summary>
    [Benchmark]
    public Task<int> RecyclableMemoryStream_CopyTo() => CopyToRecyclableStreamAsync(Client, _url);

    /// <summary>CommunityToolkit's <c>ArrayPoolBufferWriter&lt;byte&gt;</c>, filled read by read.</summary>
    [Benchmark]
    public Task<int> ArrayPoolBufferWriter() => FillBufferWriterAsync(Client, _url);

    /// <summary><c>PipeReader.Create(stream)</c>, then <c>ReadAtLeastAsync</c> of the whole body.</summary>
    [Benchmark]
    public Task<int> PipeReader_ReadAtLeast() => ReadAtLeastAsync(Client, _url, Size);

    /// <summary>The body copied into a RecyclableMemoryStream from the helpers' manager.</summary>
    /// <returns>The body's length.</returns>
    public static async Task<int> CopyToRecyclableStreamAsync(HttpClient client, Uri url)
    {
        ArgumentNullException.ThrowIfNull(client);
        using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        using Stream body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
        using RecyclableMemoryStream copy = RecyclableStreams.Manager.GetStream();
        await body.CopyToAsync(copy).ConfigureAwait(false);
        return (int)copy.Length;
    }

    /// <summary>The body read into CommunityToolkit's <c>ArrayPoolBufferWriter&lt;byte&gt;</c>, which grows through <c>ArrayPool&lt;byte&gt;.Shared</c>.</summary>
    /// <returns>The body's length.</returns>
    public static async Task<int> FillBufferWriterAsync(HttpClient client, Uri url)
    {
        ArgumentNullException.ThrowIfNull(client);
        using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        using Stream body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
        using var writer = new ArrayPoolBufferWriter<byte>();
        int read;
        while ((read = await body.ReadAsync(writer.GetMemory(ReadSize)).ConfigureAwait(false)) > 0)
        {
            writer.Advance(read);
        }

        return writer.WrittenCount;
    }

    /// <summary>A <c>PipeReader</c> over the body, asked once for at least <paramref name="size"/> bytes: it must know the size up front.</summary>
    /// <returns>The body's length.</returns>
    public static async Task<int> ReadAtLeastAsync(HttpClient client, Uri url, int size)
    {
        ArgumentNullException.ThrowIfNull(client);
        using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        using Stream body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
        PipeReader reader = PipeReader.Create(body);
        ReadResult result = await reader.ReadAtLeastAsync(size).ConfigureAwait(false);
        int length = (int)result.Buffer.Length;
        reader.AdvanceTo(result.Buffer.End);
        await reader.CompleteAsync().ConfigureAwait(false);
        return length;
    }

    /// <inheritdoc />
    protected override void Prepare()
    {
        _url = BenchmarkServer.Bytes(Size, contentLength: Framing == Framing.ContentLength);
        _floor = new byte[Size];
    }
}
