using System.Buffers;
using System.IO.Pipelines;
using BenchmarkDotNet.Attributes;
using PooledHttp.Workshop.Measuring;
using CommunityToolkit.HighPerformance.Buffers;
using Microsoft.IO;
using PooledHttp.Content;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 04's floor and the pooled read's peers. The floor is what <see cref="HttpClient"/> costs per
/// request with no body allocation at all: headers read, the body streamed into one array allocated
/// once for the whole run. Everything a strategy allocates above it is the strategy's own cost. The
/// peers are what a reader would reach for instead of the pooled read.
/// </summary>
public class PooledPeers : DownloadBenchmark
{
    /// <summary>What the buffer-writer loop asks for per read: the same as the floor and the pooled read.</summary>
    private const int ReadSize = Http.PooledBodyReader.ReadSize;

    private Uri _url = null!;
    private byte[] _floor = null!;

    /// <summary>The body size in bytes.</summary>
    [ParamsSource(nameof(Sizes))]
    public int Size { get; set; }

    /// <summary>64 KiB to 64 MiB; the quick profile leaves out 16 MiB.</summary>
    public static IEnumerable<int> Sizes => MeasurementProfile.Sizes([64 * 1024, 1024 * 1024, 16 * 1024 * 1024, 64 * 1024 * 1024], leftOutWhenQuick: 16 * 1024 * 1024);

    /// <summary>Chunked, or with a Content-Length.</summary>
    [Params(Framing.Chunked, Framing.ContentLength)]
    public Framing Framing { get; set; }

    /// <summary>The floor: <c>ResponseHeadersRead</c> into one preallocated array, no pool, no copy.</summary>
    [Benchmark(Baseline = true)]
    public Task<int> Floor() => Downloads.FloorAsync(Client, _url, _floor);

    /// <summary>The library's pooled read.</summary>
    [Benchmark]
    public Task<int> PooledRead() => PooledReadAsync(_url);

    /// <summary>The body copied into a RecyclableMemoryStream with <c>CopyToAsync</c>.</summary>
    [Benchmark]
    public async Task<int> RecyclableMemoryStream_CopyTo()
    {
        using HttpResponseMessage response = await Client.GetAsync(_url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        using Stream body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
        using RecyclableMemoryStream copy = RecyclableStreams.Manager.GetStream();
        await body.CopyToAsync(copy).ConfigureAwait(false);
        return (int)copy.Length;
    }

    /// <summary>CommunityToolkit's <c>ArrayPoolBufferWriter&lt;byte&gt;</c>, filled read by read.</summary>
    [Benchmark]
    public async Task<int> ArrayPoolBufferWriter()
    {
        using HttpResponseMessage response = await Client.GetAsync(_url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
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

    /// <summary><c>PipeReader.Create(stream)</c>, then <c>ReadAtLeastAsync</c> of the whole body.</summary>
    [Benchmark]
    public async Task<int> PipeReader_ReadAtLeast()
    {
        using HttpResponseMessage response = await Client.GetAsync(_url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        using Stream body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
        PipeReader reader = PipeReader.Create(body);
        ReadResult result = await reader.ReadAtLeastAsync(Size).ConfigureAwait(false);
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
