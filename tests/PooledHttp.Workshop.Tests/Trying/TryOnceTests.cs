using System.Net;
using PooledHttp.Tests.Support;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Trying;

namespace PooledHttp.Tests.Trying;

/// <summary>
/// <see cref="TryOnce"/> is what a chapter's cell says about a download before it is measured: it must call
/// a whole body whole, and catch a partial read, a wrong byte, a failed status and a dropped connection.
/// </summary>
public class TryOnceTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private const int OneMiB = 1024 * 1024;

    [Theory]
    [InlineData(false, 1)]
    [InlineData(true, 1)]
    [InlineData(true, 16)]
    public async Task The_series_downloads_read_every_body_whole_through_the_watching_client(bool contentLength, int writes)
    {
        Uri url = fixture.Server.BytesUrl(OneMiB, contentLength, writes);
        foreach (TryResult result in new[]
        {
            await TryOnce.DownloadAsync(Downloads.SendThenReadAsByteArrayAsync, url), // buffered by HttpClient inside SendAsync
            await TryOnce.DownloadAsync(Downloads.GetByteArrayAsync, url),
            await TryOnce.DownloadAsync((client, u) => Downloads.PooledReadAsync(client, u), url),
            await TryOnce.DownloadAsync(PooledDownload.ReadInChunksAsync, url),
            await TryOnce.DownloadAsync(PooledDownload.CopyToPooledStreamAsync, url),
        })
        {
            Assert.True(result.IsWhole, result.ToString());
            Assert.Equal(OneMiB, result.Read);
            Assert.StartsWith("✓ GET /bytes?size=1048576", result.ToString(), StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task S0s_single_read_of_a_body_sent_in_pieces_is_reported_partial_with_nothing_said()
    {
        TryResult once = await TryOnce.DownloadAsync(PooledDownload.ReadOnceAsync, fixture.Server.BytesUrl(OneMiB, contentLength: true, writes: 16));

        Assert.Equal(HttpStatusCode.OK, once.Status);
        Assert.InRange(once.Read, 1, OneMiB - 1);
        Assert.Equal(once.Read, once.Returned); // what it read is what it says it read: just not everything
        Assert.Null(once.FirstMismatch);
        Assert.False(once.IsWhole);
        Assert.Contains($"{OneMiB - once.Read:N0} bytes never read, and nothing said so", once.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_wrong_byte_a_failed_status_and_a_dropped_connection_are_each_named()
    {
        // The server's skip= starts the pattern further on, so every byte differs from what size= alone promises.
        TryResult shifted = await TryOnce.DownloadAsync(Downloads.GetByteArrayAsync, fixture.Server.BytesUrl(4096, skip: 1));
        Assert.Equal(0, shifted.FirstMismatch);
        Assert.Contains("byte 0 differs", shifted.ToString(), StringComparison.Ordinal);

        TryResult missing = await TryOnce.DownloadAsync(Downloads.GetByteArrayAsync, fixture.Server.Url("/no-such-path?size=10"));
        Assert.Equal(HttpStatusCode.NotFound, missing.Status);
        Assert.IsType<HttpRequestException>(missing.Error);
        Assert.False(missing.IsWhole);

        TryResult dropped = await TryOnce.DownloadAsync((client, u) => Downloads.PooledReadAsync(client, u), fixture.Server.ResetUrl(OneMiB, after: 64 * 1024));
        Assert.NotNull(dropped.Error);
        Assert.False(dropped.IsWhole);
        Assert.InRange(dropped.Read, 0, OneMiB - 1);
    }

    [Fact]
    public async Task The_watching_client_changes_nothing_the_code_can_see_beside_a_plain_client()
    {
        // Differential: the same request through HttpClient alone and through the watch gives the same framing headers and bytes.
        Uri url = fixture.Server.BytesUrl(70_000, contentLength: true);
        using var plain = new HttpClient();
        using HttpResponseMessage direct = await plain.GetAsync(url);
        byte[] expected = await direct.Content.ReadAsByteArrayAsync();
        long? seenLength = null;
        byte[]? seen = null;
        TryResult watched = await TryOnce.DownloadAsync(async (client, u) =>
        {
            using HttpResponseMessage response = await client.GetAsync(u);
            seenLength = response.Content.Headers.ContentLength;
            seen = await response.Content.ReadAsByteArrayAsync();
            return seen.Length;
        }, url);

        Assert.True(watched.IsWhole, watched.ToString());
        Assert.Equal(direct.Content.Headers.ContentLength, seenLength);
        Assert.Equal(expected, seen);
    }
}
