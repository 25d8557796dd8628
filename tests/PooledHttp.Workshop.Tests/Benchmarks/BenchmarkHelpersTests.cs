using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Tests.Benchmarks;

public class BenchmarkHelpersTests
{
    [Fact]
    public async Task The_array_pool_write_stream_keeps_every_byte_across_growth_and_disposes_once()
    {
        byte[] body = new byte[300_000];
        Payload.Fill(body);
        var stream = new ArrayPoolWriteStream(initialCapacity: 256);
        for (int offset = 0; offset < body.Length; offset += 7_001)
        {
            await stream.WriteAsync(body.AsMemory(offset, Math.Min(7_001, body.Length - offset)));
        }

        Assert.Equal(body, stream.GetBuffer().ToArray());
        stream.Dispose();
        stream.Dispose();
        Assert.Throws<ObjectDisposedException>(() => stream.Write([1]));
    }

    [Fact]
    public void The_compared_runtimes_are_8_9_and_the_running_one_each_with_its_own_job()
    {
        IReadOnlyList<BenchmarkDotNet.Jobs.Job> jobs = Runtimes.All(MeasurementProfile.Quick);
        Assert.Equal([8, 9, Environment.Version.Major], Runtimes.Compared);
        Assert.Equal(Runtimes.Compared.Count, jobs.Count);
        Assert.Equal(jobs.Count, jobs.Select(j => j.Id).Distinct().Count()); // BenchmarkDotNet needs distinct ids
        Assert.Equal(["net8.0", "net9.0"], jobs.Take(2).Select(j => ((BenchmarkDotNet.Environments.CoreRuntime)j.Environment.Runtime!).MsBuildMoniker));
        Assert.Contains(".NET 8.0.", Runtimes.Describe(jobs), StringComparison.Ordinal);
    }

    [Fact]
    public void Chapter_08s_runtimes_are_the_sources_and_the_running_one_and_say_so()
    {
        IReadOnlyList<BenchmarkDotNet.Jobs.Job> jobs = Runtimes.SourcesAndCurrent(MeasurementProfile.Quick);
        Assert.Equal(2, jobs.Count);
        Assert.Equal("net8.0", ((BenchmarkDotNet.Environments.CoreRuntime)jobs[0].Environment.Runtime!).MsBuildMoniker);
        Assert.Null(jobs[1].Environment.Runtime); // the running one, built by the installed SDK
        string said = Runtimes.Describe(jobs);
        Assert.Contains(".NET 8.0.", said, StringComparison.Ordinal);
        Assert.DoesNotContain(".NET 9.0.", said, StringComparison.Ordinal);
    }

    [Fact]
    public void Published_claims_come_from_the_data_folder_and_a_missing_one_says_so()
    {
        Assert.Equal(93, PublishedClaim.Of("S4", "books-250-stream").Percent);
        Assert.Throws<KeyNotFoundException>(() => PublishedClaim.Of("S4", "no-such-scenario"));
    }

    [Fact]
    public void A_size_sweep_draws_zero_bytes_on_a_labelled_bottom_line()
    {
        MeasuredRow[] rows =
        [
            new("nb", "B", "Rent", 100, "", ".NET 10", 0, 0, 0, 0, 10, 1, "quick"),
            new("nb", "B", "Rent", 1000, "", ".NET 10", 0, 0, 0, 0, 10, 1, "quick"),
            new("nb", "B", "Allocate", 100, "", ".NET 10", 128, 0, 0, 0, 10, 1, "quick"),
        ];
        var figure = (System.Text.Json.Nodes.JsonObject)System.Text.Json.Nodes.JsonNode.Parse(Plotly.NET.GenericChart.toFigureJson(PooledHttp.Workshop.Charts.Charts.SizeSweep("t", rows)))!;
        var yAxis = figure["layout"]!["yaxis"]!;
        double bottom = (double)yAxis["tickvals"]![0]!;
        Assert.Equal("0 B", (string?)yAxis["ticktext"]![0]);
        Assert.All(((System.Text.Json.Nodes.JsonArray)figure["data"]![0]!["y"]!).Select(v => (double)v!), v => Assert.Equal(bottom, v));
        Assert.Equal("0 B", (string?)figure["data"]![0]!["text"]![0]);
    }

    [Theory]
    [InlineData(70_000)]
    [InlineData(2_000_000)]
    public void Request_bodies_serialize_to_about_the_size_asked_for(int size)
    {
        int json = System.Text.Json.JsonSerializer.SerializeToUtf8Bytes(Book.Catalogue(RequestBodies.BooksFor(size)), PooledHttp.Content.PooledJson.Options).Length;
        Assert.InRange(json, size * 0.9, size * 1.1);
    }

    [Fact]
    public void A_grouped_chart_refuses_a_series_of_the_wrong_length()
    {
        var series = new Dictionary<string, double[]> { ["naive"] = [1, 2], ["pooled"] = [1] };
        ArgumentException error = Assert.Throws<ArgumentException>(() => PooledHttp.Workshop.Charts.Charts.Grouped("t", "x", "y", ["1", "4"], series));
        Assert.Contains("pooled", error.Message, StringComparison.Ordinal);
    }
}
