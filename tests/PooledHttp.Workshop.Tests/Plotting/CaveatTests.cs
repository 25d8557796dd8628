using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Measuring;

namespace PooledHttp.Tests.Plotting;

/// <summary>S0's known-length read can return part of a body (chapter 04), so no chart shows its figure without saying so.</summary>
public class CaveatTests
{
    private static MeasuredRow Row(string strategy, int size, string variant = "")
        => new("04-pooled-buffers", "PooledDownload", strategy, size, variant, ".NET 10.0.12", 3_800, 0, 0, 0, 1e6, 1e4, "default");

    [Fact]
    public void The_known_length_read_is_labelled_partial_read_on_bars_lines_groups_and_published_bars()
    {
        MeasuredRow known = Row("KnownLength_UseArrayPool", 1024 * 1024), pooled = Row("PooledRead", 1024 * 1024);
        string bars = PlotlyHtml.Of(Charts.Allocations("t", [known, pooled], PublishedFigure.Of("S0", "download")));
        string lines = PlotlyHtml.Of(Charts.SizeSweep("t", [known, pooled, known with { PayloadBytes = 2048 }, pooled with { PayloadBytes = 2048 }]));
        string groups = PlotlyHtml.Of(Charts.Grouped("t", "x", "y", ["KnownLength_UseArrayPool", "PooledRead"], new Dictionary<string, double[]> { ["a"] = [1, 2] }));

        foreach (string html in new[] { bars, lines, groups })
        {
            Assert.Contains("KnownLength_UseArrayPool (partial read)", html, StringComparison.Ordinal);
            Assert.DoesNotContain("KnownLength_UseArrayPool\"", html, StringComparison.Ordinal); // never bare
            Assert.Contains("PooledRead", html, StringComparison.Ordinal);
            Assert.DoesNotContain("PooledRead (partial read)", html, StringComparison.Ordinal);
        }

        // A label that already says so, or carries a variant, is not labelled twice.
        Assert.Equal("KnownLength_UseArrayPool (partial read) (ContentLength)", Charts.WithCaveat("KnownLength_UseArrayPool (ContentLength)"));
        Assert.Equal("KnownLength_UseArrayPool (partial read)", Charts.WithCaveat("KnownLength_UseArrayPool (partial read)"));
    }
}
