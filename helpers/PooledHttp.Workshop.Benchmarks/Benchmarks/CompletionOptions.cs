using System.Net.Http.Json;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using PooledHttp.Content;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 03, after S4: the books API read with <see cref="HttpCompletionOption.ResponseContentRead"/>
/// (the default: the body is buffered before <c>SendAsync</c> returns) against
/// <see cref="HttpCompletionOption.ResponseHeadersRead"/> (the body streams from the connection), first
/// just getting the stream, then deserializing from it.
/// </summary>
public class CompletionOptions : DownloadBenchmark
{
    private Uri _url = null!;

    /// <summary>How many books the API returns: S4's small and large payloads.</summary>
    [Params(5, 250)]
    public int Books { get; set; }

    /// <summary>The default: <c>GetAsync</c> returns after the whole body sits in a buffer; then the stream over that buffer.</summary>
    [Benchmark(Baseline = true)]
    public Task<bool> ContentRead_Stream() => OpenStreamAsync(Client, _url, HttpCompletionOption.ResponseContentRead);

    /// <summary><c>ResponseHeadersRead</c>: <c>GetAsync</c> returns after the headers; the stream reads from the connection. Unread, the body is drained on dispose.</summary>
    [Benchmark]
    public Task<bool> HeadersRead_Stream() => OpenStreamAsync(Client, _url, HttpCompletionOption.ResponseHeadersRead);

    /// <summary>The default completion option, then System.Text.Json over the buffered body.</summary>
    [Benchmark]
    public Task<int> ContentRead_Deserialize() => DeserializeBooksAsync(Client, _url, HttpCompletionOption.ResponseContentRead);

    /// <summary><c>ResponseHeadersRead</c>, then System.Text.Json straight from the connection.</summary>
    [Benchmark]
    public Task<int> HeadersRead_Deserialize() => DeserializeBooksAsync(Client, _url, HttpCompletionOption.ResponseHeadersRead);

    /// <summary><c>GetFromJsonAsync</c>: the one-liner, which reads headers first and streams into the deserializer.</summary>
    [Benchmark]
    public Task<int> GetFromJsonAsync() => GetBooksFromJsonAsync(Client, _url);

    /// <summary>Gets the response with <paramref name="option"/> and only opens its stream. Unread, a streamed body is drained on dispose.</summary>
    /// <returns>Whether the stream can be read.</returns>
    public static async Task<bool> OpenStreamAsync(HttpClient client, Uri url, HttpCompletionOption option)
    {
        ArgumentNullException.ThrowIfNull(client);
        using HttpResponseMessage response = await client.GetAsync(url, option).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        Stream stream = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
        return stream.CanRead;
    }

    /// <summary>Gets the response with <paramref name="option"/> and deserializes the books from its stream.</summary>
    /// <returns>How many books came back.</returns>
    public static async Task<int> DeserializeBooksAsync(HttpClient client, Uri url, HttpCompletionOption option)
    {
        ArgumentNullException.ThrowIfNull(client);
        using HttpResponseMessage response = await client.GetAsync(url, option).ConfigureAwait(false);
        response.EnsureSuccessStatusCode();
        Stream stream = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
        Book[] books = await JsonSerializer.DeserializeAsync<Book[]>(stream, PooledJson.Options).ConfigureAwait(false)
            ?? throw new JsonException("The books API returned null.");
        return books.Length;
    }

    /// <summary>The books with <c>GetFromJsonAsync</c>.</summary>
    /// <returns>How many books came back.</returns>
    public static async Task<int> GetBooksFromJsonAsync(HttpClient client, Uri url)
    {
        ArgumentNullException.ThrowIfNull(client);
        Book[] books = await client.GetFromJsonAsync<Book[]>(url, PooledJson.Options).ConfigureAwait(false)
            ?? throw new JsonException("The books API returned null.");
        return books.Length;
    }

    /// <inheritdoc />
    protected override void Prepare() => _url = new Uri(BenchmarkServer.Address, $"/books?count={Books}");
}
