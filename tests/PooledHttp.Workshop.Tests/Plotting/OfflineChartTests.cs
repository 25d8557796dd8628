using PooledHttp.Workshop.Charts;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Plotting;

/// <summary>
/// The charts draw from the embedded plotly.js basic bundle with no network, in a plain page (VS Code,
/// JupyterLab) and in a page where RequireJS was loaded first (classic Jupyter Notebook), where a bundle
/// that registered itself as an AMD module would leave <c>window.Plotly</c> unset.
/// </summary>
public class OfflineChartTests
{
    [Fact]
    public void The_embedded_bundle_is_plotly_basic_and_a_fraction_of_the_full_one()
    {
        string script = PlotlyHtml.Script();
        Assert.Equal("4.1.1", PlotlyHtml.Version);
        Assert.Contains("plotly.js (basic - minified) v4.1.1", script, StringComparison.Ordinal);
        // plotly.js-basic-dist-min 4.1.1 is 1,191,749 bytes; the full plotly.js-dist-min 4.1.2 was 4,834,409.
        Assert.InRange(script.Length, 1_191_749, 1_300_000);
    }

    [BrowserTheory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_notebook_chart_draws_offline_with_and_without_RequireJS(bool requireJsFirst)
    {
        string folder = Directory.CreateTempSubdirectory("pooledhttp-chart-").FullName;
        string requireJs = Path.Combine(AppContext.BaseDirectory, "Plotting", "requirejs", "require.js");
        string chart = PlotlyHtml.Of(PooledHttp.Workshop.Charts.Charts.Allocations("offline", Measuring.MeasuringTests.Rows));
        // The page is what a notebook output area holds: the setup cell's script, then the chart's div and script.
        string page = "<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
            + (requireJsFirst ? $"<script>{File.ReadAllText(requireJs)}</script>" : string.Empty)
            + "</head><body>" + PlotlyHtml.Script() + chart
            + "<script>document.body.setAttribute('data-plotly', typeof window.Plotly); document.body.setAttribute('data-amd', typeof window.define);</script>"
            + "</body></html>";
        string path = Path.Combine(folder, "page.html");
        await File.WriteAllTextAsync(path, page);

        string dom = await HeadlessChromium.DumpDomAsync(path);

        Assert.Contains("data-plotly=\"object\"", dom, StringComparison.Ordinal);
        Assert.Contains(requireJsFirst ? "data-amd=\"function\"" : "data-amd=\"undefined\"", dom, StringComparison.Ordinal);
        Assert.Contains("class=\"main-svg\"", dom, StringComparison.Ordinal); // plotly drew its SVG
        Assert.Contains(">Naive<", dom, StringComparison.Ordinal); // an axis label from the data
        Assert.DoesNotContain("\">plotly.js is not loaded", dom, StringComparison.Ordinal); // the chart's fallback text, had Plotly been missing
    }

    [BrowserFact]
    public async Task A_saved_chart_page_carries_its_plotly_js_and_draws_offline()
    {
        string path = Path.Combine(Directory.CreateTempSubdirectory("pooledhttp-chart-").FullName, "saved.html");
        PlotlyHtml.Save(PooledHttp.Workshop.Charts.Charts.Allocations("saved offline", Measuring.MeasuringTests.Rows), path);

        string html = await File.ReadAllTextAsync(path);
        Assert.Contains("<title>saved offline</title>", html, StringComparison.Ordinal);
        Assert.DoesNotContain("<script src", html, StringComparison.Ordinal); // Plotly.NET's default reference is a CDN script
        string dom = await HeadlessChromium.DumpDomAsync(path);
        Assert.Contains("class=\"main-svg\"", dom, StringComparison.Ordinal);
        Assert.Contains(">Naive<", dom, StringComparison.Ordinal);
    }

    [BrowserFact]
    public async Task A_chart_without_plotly_js_on_the_page_says_which_cell_to_run()
    {
        string path = Path.Combine(Directory.CreateTempSubdirectory("pooledhttp-chart-").FullName, "bare.html");
        await File.WriteAllTextAsync(path, "<!DOCTYPE html><html><body>" + PlotlyHtml.Of(PooledHttp.Workshop.Charts.Charts.Allocations("bare", Measuring.MeasuringTests.Rows)) + "</body></html>");

        string dom = await HeadlessChromium.DumpDomAsync(path);

        Assert.Contains("plotly.js is not loaded: run the notebook's setup cell first.", dom, StringComparison.Ordinal);
    }
}
