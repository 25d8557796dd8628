using System.Reflection;
using System.Text.Json;
using Plotly.NET;
using PooledHttp.Workshop.Notebooks;

namespace PooledHttp.Workshop.Charts;

/// <summary>
/// Draws Plotly.NET charts (<see cref="GenericChart"/>) with the plotly.js embedded in this assembly:
/// no CDN, so charts work offline, in CI and on workshop wifi.
/// </summary>
/// <remarks>
/// <para>Plotly.NET writes the chart's div and script; what it cannot do is reference plotly.js without a
/// network (its own embedded copy is the 3.6 MB full bundle; this one is the 1.2 MB basic bundle, which has
/// every trace the series draws). So the page gets <see cref="Script"/> once, and each chart is Plotly.NET's
/// HTML with no reference of its own; a saved page carries the bundle in its head.</para>
/// <para>In a notebook: display <see cref="Script"/> once (the setup cell does), and register <see cref="Of"/>
/// as the kernel's HTML formatter for <see cref="GenericChart"/>, as Plotly.NET.Interactive would (it is not
/// served here). Under the headless runner (<see cref="WorkshopPaths.UnderRunner"/>), <see cref="Of"/>
/// also saves each chart as a standalone page under <c>charts/</c> there.</para>
/// </remarks>
public static partial class PlotlyHtml
{
    private static readonly Lazy<string> PlotlyJs = new(LoadPlotlyJs);

    /// <summary>
    /// A script element holding plotly.js's basic bundle, and a line saying so. Display it once per
    /// notebook, before any chart. The bundle assigns <c>window.Plotly</c> itself, so it also loads where
    /// RequireJS is on the page first, as in classic Jupyter.
    /// </summary>
    public static string Script() => "<script type=\"text/javascript\">" + PlotlyJs.Value + "</script><div>plotly.js " + Version + " loaded (embedded, no network needed).</div>";

    /// <summary>plotly.js itself, the script's text with no element around it.</summary>
    internal static string Bundle => PlotlyJs.Value;

    /// <summary>The version of the embedded plotly.js.</summary>
    public static string Version => VersionInHeader().Match(PlotlyJs.Value[..Math.Min(200, PlotlyJs.Value.Length)]) is { Success: true } match
        ? match.Groups[1].Value
        : "unknown";

    // The bundle's first comment: "plotly.js (basic - minified) v4.1.1".
    [System.Text.RegularExpressions.GeneratedRegex(@"plotly\.js[^\n]*? v(\d+\.\d+\.\d+)")]
    private static partial System.Text.RegularExpressions.Regex VersionInHeader();

    /// <summary>
    /// The chart as an HTML fragment that draws with the plotly.js already on the page (Plotly.NET's own
    /// div and script), and says so in words when there is none.
    /// </summary>
    public static string Of(GenericChart chart)
    {
        ArgumentNullException.ThrowIfNull(chart);
        if (WorkshopPaths.UnderRunner)
        {
            Save(chart, Path.Combine(WorkshopPaths.Output, "charts", FileName(Title(chart))));
        }

        // Plotly.NET's script stops at its first line without plotly.js; this one still runs and says why the chart is blank.
        const string Fallback = "<script type=\"text/javascript\">if (!window.Plotly) { document.currentScript.previousElementSibling.textContent = \"plotly.js is not loaded: run the notebook's setup cell first.\"; }</script>";
        return "<div>" + GenericChart.toChartHTML(WithoutReference(chart)) + Fallback + "</div>";
    }

    /// <summary>Writes a standalone HTML page with plotly.js embedded in its head; it opens with no network.</summary>
    public static void Save(GenericChart chart, string path)
    {
        ArgumentNullException.ThrowIfNull(chart);
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
        // No page margin: the chart's own height is the page's, so a picture of the page has no scroll bars.
        string page = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + System.Net.WebUtility.HtmlEncode(Title(chart)) + "</title><style>body { margin: 0; }</style>"
            + "<script type=\"text/javascript\">" + PlotlyJs.Value + "</script></head><body>"
            + GenericChart.toChartHTML(WithoutReference(chart)) + "</body></html>";
        File.WriteAllText(path, page);
    }

    /// <summary>The chart's title (its layout's <c>title.text</c>), or "chart" when it has none.</summary>
    public static string Title(GenericChart chart)
    {
        ArgumentNullException.ThrowIfNull(chart);
        using var figure = JsonDocument.Parse(GenericChart.toFigureJson(chart));
        return figure.RootElement.GetProperty("layout").TryGetProperty("title", out JsonElement title)
            && title.ValueKind == JsonValueKind.Object && title.TryGetProperty("text", out JsonElement text) && text.GetString() is { Length: > 0 } words
            ? words
            : "chart";
    }

    /// <summary>
    /// <paramref name="chart"/> drawing with whatever plotly.js the page has. Set by name on Plotly.NET's dynamic
    /// options, so this assembly never names an FSharp.Core type (see <c>notebooks/workshop.csx</c> for why that matters).
    /// </summary>
    private static GenericChart WithoutReference(GenericChart chart)
    {
        var options = new DisplayOptions();
        options.SetProperty("PlotlyJSReference", PlotlyJSReference.NoReference);
        return GenericChart.setDisplayOptions(options, chart);
    }

    /// <summary>The file name a chart's page gets from its title: its letters and digits, dashes between.</summary>
    internal static string FileName(string title)
    {
        var slug = new System.Text.StringBuilder();
        foreach (char c in title.ToLowerInvariant())
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
}
