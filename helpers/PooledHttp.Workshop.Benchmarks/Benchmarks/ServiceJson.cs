using BenchmarkDotNet.Attributes;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 09, section 4: chapter 03's books deserialized from the pooled read's lease, with <c>ReadFromJsonAsync</c>,
/// with <c>GetFromJsonAsync</c>, and from memory (the objects and the parser alone), at two catalogue sizes.
/// </summary>
public class ServiceJson : DownloadBenchmark
{
    private Uri _url = null!;
    private byte[] _json = null!;

    /// <summary>How many books: S4's 250 (about 27 KB of JSON), and ten times that.</summary>
    [Params(250, 2_500)]
    public int Books { get; set; }

    /// <summary>No HTTP: the same JSON deserialized from an array in memory.</summary>
    [Benchmark(Baseline = true)]
    public int FromMemory() => BookJson.FromMemory(_json);

    /// <summary>The pooled read, deserialized from the lease's span.</summary>
    [Benchmark]
    public Task<int> FromLease() => BookJson.FromLeaseAsync(Client, _url);

    /// <summary><c>GetAsync</c> then <c>ReadFromJsonAsync</c>.</summary>
    [Benchmark]
    public Task<int> ReadFromJsonAsync() => BookJson.ReadFromJsonAsync(Client, _url);

    /// <summary><c>GetFromJsonAsync</c>, chapter 03's one-liner.</summary>
    [Benchmark]
    public Task<int> GetFromJsonAsync() => CompletionOptions.GetBooksFromJsonAsync(Client, _url);

    /// <inheritdoc />
    protected override void Prepare()
    {
        _url = new Uri(BenchmarkServer.Address, $"/books?count={Books}");
        _json = Book.CatalogueJson(Books);
    }
}
