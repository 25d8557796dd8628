using System.Globalization;
using System.Reflection;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using PooledHttp.Notebooks;

namespace PooledHttp.Charts;

/// <summary>
/// A Plotly figure (data and layout as JSON) that renders with the plotly.js embedded in this
/// assembly: no CDN, so charts work offline, in CI and on workshop wifi.
/// </summary>
/// <remarks>
/// <para>In a notebook, display <see cref="PlotlyScript"/> once (the setup cell does), then each
/// chart's <see cref="ToHtml"/>. When the headless runner sets <see cref="WorkshopPaths.OutputVariable"/>,
/// <see cref="ToHtml"/> also saves the chart as a standalone HTML file under <c>charts/</c> there.</para>
/// </remarks>
public sealed partial class PlotlyChart : IHtmlView
{
    private static readonly Lazy<string> PlotlyJs = new(LoadPlotlyJs);
    private static int _counter;

    internal PlotlyChart(string title, JsonArray data, JsonObject layout)
    {
        Title = title;
        Data = data;
        Layout = layout;
    }

    /// <summary>The chart's title, also its file name when saved.</summary>
    public string Title { get; }

    /// <summary>The traces.</summary>
    public JsonArray Data { get; }

    /// <summary>The layout.</summary>
    public JsonObject Layout { get; }

    /// <summary>The height the layout asks for, in pixels; the chart's div gets it, since a responsive chart takes its div's size.</summary>
    public int Height => Layout["height"] is JsonValue value && value.TryGetValue(out int pixels) ? pixels : DefaultHeight;

    private const int DefaultHeight = 480;

    /// <summary>The figure as Plotly JSON: <c>{"data": [...], "layout": {...}}</c>.</summary>
    public string FigureJson => new JsonObject { ["data"] = Data.DeepClone(), ["layout"] = Layout.DeepClone() }.ToJsonString();

    /// <summary>
    /// A script element holding plotly.js's basic bundle (bar and scatter are all the series draws; about
    /// 1.2 MiB against 4.8 MiB for the full bundle). Display it once per notebook, before any chart. The
    /// bundle assigns <c>window.Plotly</c> itself, so it also loads where RequireJS is on the page first, as
    /// in classic Jupyter.
    /// </summary>
    public static string PlotlyScript() => "<script type=\"text/javascript\">" + PlotlyJs.Value + "</script><div>plotly.js " + PlotlyVersion + " loaded (embedded, no network needed).</div>";

    /// <summary>The version of the embedded plotly.js.</summary>
    public static string PlotlyVersion => VersionInHeader().Match(PlotlyJs.Value[..Math.Min(200, PlotlyJs.Value.Length)]) is { Success: true } match
        ? match.Groups[1].Value
        : "unknown";

    // The bundle's first comment: "plotly.js (basic - minified) v4.1.1".
    [System.Text.RegularExpressions.GeneratedRegex(@"plotly\.js[^\n]*? v(\d+\.\d+\.\d+)")]
    private static partial System.Text.RegularExpressions.Regex VersionInHeader();

    /// <summary>A div and a script that draws the chart with the plotly.js already on the page.</summary>
    public string ToHtml()
    {
        if (Environment.GetEnvironmentVariable(WorkshopPaths.OutputVariable) is { Length: > 0 })
        {
            SaveHtml(Path.Combine(WorkshopPaths.Output, "charts", FileName()));
        }

        string id = "pooledhttp-chart-" + Interlocked.Increment(ref _counter).ToString(CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N")[..8];
        return $$"""
            <div id="{{id}}" style="width:100%;max-width:960px;height:{{Height}}px;"></div>
            <script type="text/javascript">
            (function () {
              var figure = {{FigureJson}};
              var target = document.getElementById("{{id}}");
              if (window.Plotly) { window.Plotly.newPlot(target, figure.data, figure.layout, { responsive: true }); }
              else { target.textContent = "plotly.js is not loaded: run the notebook's setup cell first."; }
            })();
            </script>
            """;
    }

    /// <summary>Writes a standalone HTML page with plotly.js embedded; it opens with no network.</summary>
    public void SaveHtml(string path)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
        var page = new StringBuilder();
        page.Append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
            .Append(System.Net.WebUtility.HtmlEncode(Title))
            .Append("</title><script type=\"text/javascript\">").Append(PlotlyJs.Value).Append("</script></head><body>")
            .Append("<div id=\"chart\" style=\"width:100%;height:").Append(Height.ToString(CultureInfo.InvariantCulture)).Append("px;\"></div><script type=\"text/javascript\">var figure = ")
            .Append(FigureJson)
            .Append(";Plotly.newPlot('chart', figure.data, figure.layout, { responsive: true });</script></body></html>");
        File.WriteAllText(path, page.ToString());
    }

    private string FileName()
    {
        var slug = new StringBuilder();
        foreach (char c in Title.ToLowerInvariant())
        {
            slug.Append(char.IsAsciiLetterOrDigit(c) ? c : '-');
        }

        return string.Join('-', slug.ToString().Split('-', StringSplitOptions.RemoveEmptyEntries)) + ".html";
    }

    private static string LoadPlotlyJs()
    {
        using Stream stream = Assembly.GetExecutingAssembly().GetManifestResourceStream("plotly.min.js")
            ?? throw new InvalidOperationException("plotly.min.js is not embedded in PooledHttp.Workshop.dll: rebuild the helpers.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }

    internal static JsonNode Node<T>(T value) => JsonSerializer.SerializeToNode(value)!;
}
