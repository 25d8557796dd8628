using System.Text.Json.Nodes;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Measuring;

namespace PooledHttp.Tests.Measuring;

/// <summary>Rows from several runtimes: every lookup and chart keys by runtime, and nothing picks one silently.</summary>
public class RuntimeRowsTests
{
    private static readonly MeasurementResult TwoRuntimes = new(
    [
        Row("GetByteArrayAsync", ".NET 8.0.31", 5_189_140),
        Row("GetByteArrayAsync", ".NET 10.0.12", 2_098_000),
        Row("PooledRead", ".NET 8.0.31", 2_900),
        Row("PooledRead", ".NET 10.0.12", 2_400),
    ]);

    [Theory]
    [InlineData(".NET 8.0.31", 8)]
    [InlineData(".NET 10.0.12", 10)]
    [InlineData(".NET 9.0.20 (9.0.2025.41914)", 9)]
    [InlineData("unknown runtime", 0)]
    public void A_row_knows_its_runtime_major_version(string runtime, int major)
        => Assert.Equal(major, Row("x", runtime, 1).RuntimeMajor);

    [Fact]
    public void A_lookup_over_two_runtimes_must_name_one()
    {
        var error = Assert.Throws<InvalidOperationException>(() => TwoRuntimes.Get("GetByteArrayAsync", 1 << 20));
        Assert.Contains(".NET 8.0.31, .NET 10.0.12", error.Message, StringComparison.Ordinal);
        Assert.Equal(5_189_140, TwoRuntimes.Get("GetByteArrayAsync", 1 << 20, runtime: 8).AllocatedBytes);
        Assert.Equal(2_098_000, TwoRuntimes.Get("GetByteArrayAsync", 1 << 20, runtime: 10).AllocatedBytes);
        Assert.Throws<KeyNotFoundException>(() => TwoRuntimes.Get("GetByteArrayAsync", runtime: 9));
    }

    [Fact]
    public void One_runtime_at_a_time_and_the_runtimes_oldest_first()
    {
        Assert.Equal([".NET 8.0.31", ".NET 10.0.12"], TwoRuntimes.Runtimes);
        MeasurementResult eight = TwoRuntimes.On(8);
        Assert.Equal(2, eight.Count);
        Assert.Equal(2_900, eight.Get("PooledRead").AllocatedBytes); // one runtime left: no need to name it
    }

    [Fact]
    public void Charts_draw_one_series_per_runtime_oldest_first()
    {
        JsonArray bars = Data(PooledHttp.Workshop.Charts.Charts.Allocations("bars", TwoRuntimes.Reverse()));
        Assert.Equal(["measured here, .NET 8.0.31", "measured here, .NET 10.0.12"], bars.Select(b => (string)b!["name"]!));

        JsonArray lines = Data(PooledHttp.Workshop.Charts.Charts.SizeSweep("lines", TwoRuntimes));
        Assert.Equal(4, lines.Count);
        Assert.Contains(lines, l => (string)l!["name"]! == "PooledRead (Chunked), .NET 8.0.31");
    }

    private static JsonArray Data(Plotly.NET.GenericChart chart) => (JsonArray)JsonNode.Parse(Plotly.NET.GenericChart.toFigureJson(chart))!["data"]!;

    private static MeasuredRow Row(string strategy, string runtime, long allocated)
        => new("test", "Bench", strategy, 1 << 20, "Chunked", runtime, allocated, 0, 0, 0, 1_000_000, 1_000, "quick");
}
