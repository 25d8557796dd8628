using System.Text.Json.Nodes;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Tests.Repository;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Tests.Measuring;

public class MeasuringTests
{
    /// <summary>Two rows as a run writes them; other tests of views reuse them.</summary>
    internal static readonly MeasuredRow[] Rows =
    [
        new("nb", "B", "Naive", 65536, "", ".NET 10.0.12", 67_684, 1.5, 0, 0, 700_000, 10_000, "quick"),
        new("nb", "B", "Pooled", 65536, "ContentLength, Books=5", ".NET 10.0.12", 2_329, 0, 0, 0, 600_000, 9_000, "quick"),
    ];

    [Theory]
    [InlineData(0, "0 B")]
    [InlineData(1023, "1023 B")]
    [InlineData(1024, "1 KiB")]
    [InlineData(3799, "3.71 KiB")]
    [InlineData(5_189_140, "4.95 MiB")]
    public void Bytes_are_formatted_in_binary_units(long bytes, string expected) => Assert.Equal(expected, ByteUnits.Format(bytes));

    [Theory]
    [InlineData(8.26, "8.26 ns")]
    [InlineData(20_910, "20.91 us")]
    [InlineData(-3_919_000, "-3.92 ms")]
    public void Times_keep_their_sign_and_pick_a_short_unit(double nanoseconds, string expected) => Assert.Equal(expected, TimeUnits.Format(nanoseconds));

    [Fact]
    public void A_time_difference_within_its_error_is_inconclusive()
    {
        // Chapter 05's reference run with three iterations: serializing 2 MB through the buffer writer, 3,312 ± 12,273 us.
        MeasuredRow writer = Rows[0] with { MeanNs = 3_312_000, ErrorNs = 12_273_000 };
        MeasuredRow stream = Rows[0] with { MeanNs = 3_341_000, ErrorNs = 103_000 };
        TimeDifference blurred = TimeDifference.Between(writer, stream);
        Assert.False(blurred.IsResolved);
        Assert.Equal(-29_000, blurred.Nanoseconds, precision: 6);
        Assert.Equal(Math.Sqrt((12_273_000.0 * 12_273_000) + (103_000.0 * 103_000)), blurred.ErrorNanoseconds, precision: 3);
        Assert.EndsWith("(within the error: inconclusive)", blurred.ToString(), StringComparison.Ordinal);

        TimeDifference clear = TimeDifference.Between(writer with { ErrorNs = 30_000 }, stream with { MeanNs = 2_000_000, ErrorNs = 40_000 });
        Assert.True(clear.IsResolved);
        Assert.Equal("1.31 ms ± 50 us", clear.ToString());
    }

    [Fact]
    public void Results_csv_round_trips_and_appends_without_repeating_the_header()
    {
        string path = Path.Combine(Path.GetTempPath(), "pooledhttp-tests", Guid.NewGuid().ToString("N"), "r.csv");
        ResultsCsv.Append(path, Rows);
        ResultsCsv.Append(path, Rows[..1]);
        Assert.Equal(1, File.ReadAllLines(path).Count(l => l == ResultsCsv.Header));
        IReadOnlyList<MeasuredRow> read = ResultsCsv.Read(path);
        Assert.Equal([Rows[0], Rows[1], Rows[0]], read);
    }

    [Fact]
    public void Published_figures_come_from_the_data_folder()
    {
        IReadOnlyList<PublishedFigure> s0 = PublishedFigure.Of("S0", "download");
        Assert.Equal(5, s0.Count);
        string line = File.ReadAllLines(Path.Combine(RepositoryTests.FindRoot(), "data", "published", "published.csv"))
            .Single(l => l.StartsWith("S0,download,KnownLength_UseArrayPool,", StringComparison.Ordinal));
        Assert.Equal(long.Parse(line.Split(',')[^1], System.Globalization.CultureInfo.InvariantCulture), s0.Single(f => f.Method == "KnownLength_UseArrayPool").AllocatedBytes);
    }

    [Fact]
    public void A_published_series_whose_source_stated_no_runtime_says_so_in_words()
    {
        // S2 did not say which runtime it measured: the data file has "unknown" there, which a legend must not show as if it were a runtime.
        IReadOnlyList<PublishedFigure> s2 = PublishedFigure.Of("S2", "request-content");
        Assert.All(s2, f => Assert.Equal("unknown", f.Runtime));
        Plotly.NET.GenericChart chart = PooledHttp.Workshop.Charts.Charts.Allocations("t", Rows, s2);
        var figure = (JsonObject)JsonNode.Parse(Plotly.NET.GenericChart.toFigureJson(chart))!;
        string[] names = ((JsonArray)figure["data"]!).Select(t => (string)t!["name"]!).ToArray();
        Assert.Equal(["measured here, .NET 10.0.12", "published (S2, runtime not stated)"], names);
    }

    [Fact]
    public void Allocation_chart_has_a_measured_and_a_labelled_published_series_on_a_log_axis()
    {
        Plotly.NET.GenericChart chart = PooledHttp.Workshop.Charts.Charts.Allocations("t", Rows, PublishedFigure.Of("S0", "download"));
        var figure = (JsonObject)JsonNode.Parse(Plotly.NET.GenericChart.toFigureJson(chart))!;
        string[] names = ((JsonArray)figure["data"]!).Select(t => (string)t!["name"]!).ToArray();
        Assert.Equal(["measured here, .NET 10.0.12", "published (S0, net8.0)"], names);
        Assert.Equal("log", (string?)figure["layout"]!["yaxis"]!["type"]);
        Assert.Contains("1 KiB", ((JsonArray)figure["layout"]!["yaxis"]!["ticktext"]!).Select(t => (string)t!));
        Assert.Equal("t", PlotlyHtml.Title(chart));
        Assert.Null(figure["layout"]!["width"]); // fills the output's width
        Assert.Contains("Plotly.newPlot(", PlotlyHtml.Of(chart), StringComparison.Ordinal);
    }

    [Fact]
    public void A_chart_of_no_rows_is_an_empty_chart_with_its_title_not_an_error()
    {
        // An exercise that is not done yet has no row of its own: its chart still draws, empty.
        foreach (Plotly.NET.GenericChart chart in new[]
        {
            PooledHttp.Workshop.Charts.Charts.Allocations("no rows", []),
            PooledHttp.Workshop.Charts.Charts.SizeSweep("no rows", []),
            PooledHttp.Workshop.Charts.Charts.Grouped("no rows", "x", "y", [], new Dictionary<string, double[]>()),
        })
        {
            Assert.Equal("no rows", PlotlyHtml.Title(chart));
            Assert.Contains("Plotly.newPlot(", PlotlyHtml.Of(chart), StringComparison.Ordinal);
        }

        // Each chart's layout is its own: a second chart does not retitle the first.
        Plotly.NET.GenericChart first = PooledHttp.Workshop.Charts.Charts.Allocations("first", []);
        Plotly.NET.GenericChart second = PooledHttp.Workshop.Charts.Charts.Grouped("second", "x", "y", [], new Dictionary<string, double[]>());
        Plotly.NET.GenericChart third = PooledHttp.Workshop.Charts.Charts.Allocations("third", Rows);
        Assert.Equal(["first", "second", "third"], new[] { first, second, third }.Select(PlotlyHtml.Title));
    }

    [Fact]
    public void Result_table_shows_every_row_in_text_and_html()
    {
        var result = new MeasurementResult(Rows);
        Assert.Contains("66.1 KiB", result.ToString(), StringComparison.Ordinal);
        Assert.Contains("<td>2.27 KiB</td>", result.ToHtml(), StringComparison.Ordinal);
        Assert.Equal(2_329, result.Get("Pooled").AllocatedBytes);
        Assert.Throws<KeyNotFoundException>(() => result.Get("Missing"));
    }

    [Fact]
    public void A_row_whose_error_exceeds_its_mean_says_it_is_noisy_instead_of_showing_the_interval()
    {
        // Chapter 00's reference run: GetByteArrayAsync, 6.7 ms with an error of 118.23 ms (three iterations).
        MeasuredRow noisy = Rows[0] with { MeanNs = 6_697_496, ErrorNs = 118_234_516 };
        MeasuredRow clear = Rows[1] with { MeanNs = 6_045_401, ErrorNs = 64_459 };
        Assert.True(MeasurementResult.IsNoisy(noisy));
        Assert.False(MeasurementResult.IsNoisy(clear));
        Assert.False(MeasurementResult.IsNoisy(clear with { ErrorNs = clear.MeanNs })); // equal is not larger

        var result = new MeasurementResult([noisy, clear]);
        string html = result.ToHtml();
        Assert.Contains("<th>mean</th><th>± error</th></tr></thead>", html, StringComparison.Ordinal);
        Assert.Contains("<td>6.7 ms</td><td>noisy: larger than the mean</td>", html, StringComparison.Ordinal);
        Assert.DoesNotContain("118.23 ms", html, StringComparison.Ordinal);
        Assert.Contains("<td>6.05 ms</td><td>64.46 us</td>", html, StringComparison.Ordinal);
        Assert.Contains("<tr><td colspan=\"9\"><small>noisy: the error (half BenchmarkDotNet's 99.9% confidence interval", html, StringComparison.Ordinal);
        Assert.Equal(1, html.Split("<small>noisy:").Length - 1);

        string text = result.ToString();
        Assert.Contains(MeasurementResult.NoisyError, text, StringComparison.Ordinal);
        Assert.DoesNotContain("118.23 ms", text, StringComparison.Ordinal);
        Assert.EndsWith(MeasurementResult.NoisyFootnote, text, StringComparison.Ordinal);

        // A table with no noisy row has no footnote.
        var quiet = new MeasurementResult([clear]);
        Assert.DoesNotContain("noisy", quiet.ToHtml(), StringComparison.Ordinal);
        Assert.DoesNotContain(MeasurementResult.NoisyFootnote, quiet.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void Every_result_table_ends_with_a_legend_of_its_columns_in_html_and_in_text()
    {
        var result = new MeasurementResult(Rows);
        string html = result.ToHtml();
        string text = result.ToString();

        // Under the rows, one footer line per legend line, written as it reads (no entities for "±" or "'").
        int body = html.IndexOf("</tbody>", StringComparison.Ordinal);
        foreach (string line in MeasurementResult.Legend)
        {
            int at = html.IndexOf($"<tr><td colspan=\"9\"><small>{line}</small></td></tr>", StringComparison.Ordinal);
            Assert.True(at > body, $"legend line missing or above the rows: {line}");
        }

        Assert.EndsWith("</tfoot></table>", html, StringComparison.Ordinal);
        Assert.DoesNotContain("&#", html[body..], StringComparison.Ordinal);
        Assert.EndsWith(Environment.NewLine + string.Join(Environment.NewLine, MeasurementResult.Legend), text, StringComparison.Ordinal);

        // One or two short lines that name every column a reader might not know, and what "-" means.
        Assert.InRange(MeasurementResult.Legend.Count, 1, 2);
        string legend = string.Join(" ", MeasurementResult.Legend);
        foreach (string term in new[] { "mean:", "± error:", "99.9% confidence interval", "allocated / op:", "Gen0, Gen1, Gen2:", "per 1,000 operations", "-: none recorded" })
        {
            Assert.Contains(term, legend, StringComparison.Ordinal);
        }

        // The rows still come first: the legend follows the last row of the text table.
        Assert.Contains("Pooled", text.Split(Environment.NewLine)[^(MeasurementResult.Legend.Count + 1)], StringComparison.Ordinal);
    }

    [Fact]
    public void A_noisy_table_carries_the_legend_then_the_footnote()
    {
        var result = new MeasurementResult([Rows[0] with { ErrorNs = 2 * Rows[0].MeanNs }]);
        string text = result.ToString();
        Assert.EndsWith(string.Join(Environment.NewLine, [.. MeasurementResult.Legend, MeasurementResult.NoisyFootnote]), text, StringComparison.Ordinal);
        string html = result.ToHtml();
        Assert.True(html.IndexOf("Gen0, Gen1, Gen2:", StringComparison.Ordinal) < html.IndexOf("<small>noisy:", StringComparison.Ordinal));
    }
}
