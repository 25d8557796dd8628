using PooledHttp.Publishing;
using Plotly.NET;
using PooledHttp.Tests.Support;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Measuring;

namespace PooledHttp.Tests.Plotting;

/// <summary>
/// A chart's picture (the chapter pages', the README's) is the whole chart: drawn at the chart's own size, so no
/// scroll bar and no cut label, and without plotly's toolbar, which only means something in a live page.
/// </summary>
public class ChartPictureTests
{
    // Chapter 05's and 08's longest strategy names, tilted under the bars: the labels the old pictures cut.
    private static readonly string[] LongNames =
    [
        "Baseline", "SystemTextJson_ReadOnlyMemoryContent", "RecyclableStreamAndStreamContent", "Protobuf_ReadOnlyMemoryContent",
        "Protobuf_RecyclableStreamAndStreamContent", "SendAsync_ResponseHeadersRead_ChunkedRead_ArrayOverload", "KnownLength_UseArrayPool",
    ];

    private static GenericChart LongLabels()
    {
        MeasuredRow[] rows = LongNames.Select((name, i) => Measuring.MeasuringTests.Rows[0] with { Strategy = name, Variant = "", AllocatedBytes = 3_000 << (2 * i) }).ToArray();
        PublishedFigure[] published = LongNames.Take(4).Select(name => new PublishedFigure("S2", "request-content", name, "unknown", "large", 7_000, null)).ToArray();
        return Charts.Allocations("bytes allocated per operation, long strategy names", rows, published);
    }

    [Fact]
    public void The_size_is_the_layouts_and_plotlys_own_defaults_where_it_sets_none()
    {
        Assert.Equal((1000, 620), ChartPicture.Size(PlotlyHtml.Of(LongLabels())));
        Assert.Equal((640, 300), ChartPicture.Size("<script>\n    var layout = {\"title\":{\"text\":\"t\"},\"width\":640,\"height\":300};\n</script>"));
        Assert.Equal((800, 450), ChartPicture.Size("<script>\n    var layout = {\"title\":{\"text\":\"t\"}};\n</script>", defaultWidth: 800));
        Assert.Throws<ArgumentException>(() => ChartPicture.Size("<div>no chart</div>"));
    }

    [Fact]
    public void The_picture_page_turns_the_toolbar_off_and_keeps_the_chart_as_the_notebook_shows_it()
    {
        string chart = PlotlyHtml.Of(LongLabels());
        string page = ChartPicture.Page(chart);

        Assert.Contains("displayModeBar: false", page, StringComparison.Ordinal);
        Assert.Contains(chart, page, StringComparison.Ordinal);
        Assert.DoesNotContain("displayModeBar", chart, StringComparison.Ordinal); // the learner's chart keeps its toolbar
    }

    [BrowserFact]
    public async Task A_chart_with_long_strategy_names_is_pictured_whole_at_its_own_size()
    {
        string png = Path.Combine(Directory.CreateTempSubdirectory("pooledhttp-picture-").FullName, "long.png");

        (int width, int height) = await ChartPicture.RenderAsync(PlotlyHtml.Of(LongLabels()), png, browser: HeadlessChromium.Path);

        PngPixels picture = PngPixels.Read(png);
        Assert.Equal((1000, 620), (width, height));
        Assert.Equal((width, height), (picture.Width, picture.Height));
        Assert.Null(ChartPictureCheck.Problems(picture));
    }

    [BrowserFact]
    public async Task A_saved_chart_page_is_pictured_whole_too()
    {
        string folder = Directory.CreateTempSubdirectory("pooledhttp-picture-").FullName;
        string saved = Path.Combine(folder, "saved.html");
        PlotlyHtml.Save(LongLabels(), saved);

        await ChartPicture.RenderAsync(await File.ReadAllTextAsync(saved), Path.Combine(folder, "saved.png"), browser: HeadlessChromium.Path);

        PngPixels picture = PngPixels.Read(Path.Combine(folder, "saved.png"));
        Assert.Equal((1000, 620), (picture.Width, picture.Height));
        Assert.Null(ChartPictureCheck.Problems(picture));
    }

    [BrowserFact]
    public async Task The_check_sees_the_scroll_bars_and_toolbar_of_a_chart_shot_in_a_window_smaller_than_the_chart()
    {
        // The pictures as they were taken before: the chart's own page, toolbar on, in a 1000 x 560 window for a 620 px chart.
        string folder = Directory.CreateTempSubdirectory("pooledhttp-picture-").FullName;
        string page = Path.Combine(folder, "page.html");
        await File.WriteAllTextAsync(page, "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:0\"><div style=\"display:none\">" + PlotlyHtml.Script() + "</div>" + PlotlyHtml.Of(LongLabels()) + "</body></html>");

        await HeadlessChromium.ScreenshotAsync(page, 1000, 560, Path.Combine(folder, "cut.png"));

        string? problems = ChartPictureCheck.Problems(PngPixels.Read(Path.Combine(folder, "cut.png")));
        Assert.NotNull(problems);
        Assert.Contains("scroll bar", problems, StringComparison.Ordinal);
        Assert.Contains("toolbar", problems, StringComparison.Ordinal);
    }
}
