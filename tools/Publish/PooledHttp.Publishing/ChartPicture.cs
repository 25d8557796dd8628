using System.Globalization;
using PooledHttp.Workshop.Charts;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;

namespace PooledHttp.Publishing;

/// <summary>
/// A chart as a picture: headless Chromium, networking off, draws the chart at its own size (its layout's width and
/// height) in a page with no margin and without plotly's toolbar, so the picture is the whole chart and nothing else.
/// What the learner sees in a notebook keeps the toolbar: it is turned off only in the page drawn here.
/// </summary>
public static partial class ChartPicture
{
    /// <summary>The width of a chart whose layout sets none (the kit's charts fill their output, so set none): a page this wide.</summary>
    public const int DefaultWidth = 1000;

    /// <summary>plotly.js's own height for a chart whose layout sets none.</summary>
    public const int DefaultHeight = 450;

    /// <summary>Wraps <c>Plotly.newPlot</c> so every chart on the page draws with no toolbar, whatever config the chart's own script passes.</summary>
    private const string NoToolbar = "(function () { var draw = Plotly.newPlot; Plotly.newPlot = function (div, data, layout, config) { return draw.call(Plotly, div, data, layout, Object.assign({}, config, { displayModeBar: false })); }; })();";

    /// <summary>
    /// The size the chart in <paramref name="html"/> draws at: its layout's width and height, or <paramref name="defaultWidth"/>
    /// and <see cref="DefaultHeight"/> where the layout has none.
    /// </summary>
    /// <param name="html">A chart as <see cref="PlotlyHtml.Of"/> writes it, or a page <see cref="PlotlyHtml.Save"/> wrote.</param>
    /// <param name="defaultWidth">The width of a chart whose layout sets none.</param>
    /// <exception cref="ArgumentException"><paramref name="html"/> holds no Plotly.NET chart.</exception>
    public static (int Width, int Height) Size(string html, int defaultWidth = DefaultWidth)
    {
        ArgumentNullException.ThrowIfNull(html);
        Match layout = Layout().Match(html);
        if (!layout.Success)
        {
            throw new ArgumentException("The HTML holds no Plotly.NET chart (no 'var layout = {...};' line).", nameof(html));
        }

        JsonNode? figure = JsonNode.Parse(layout.Groups["json"].Value);
        return (Pixels(figure?["width"]) ?? defaultWidth, Pixels(figure?["height"]) ?? DefaultHeight);
    }

    /// <summary>
    /// The page that draws the chart of <paramref name="html"/> for a picture: plotly.js, no page margin, no toolbar, then
    /// the chart (a saved page's body, or the fragment as it is).
    /// </summary>
    public static string Page(string html)
    {
        ArgumentNullException.ThrowIfNull(html);
        string chart = Body().Match(html) is { Success: true } body ? body.Groups["content"].Value : html;
        return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>html, body { margin: 0; }</style>"
            + "<script type=\"text/javascript\">" + PlotlyHtml.Bundle + "</script>"
            + "<script type=\"text/javascript\">" + NoToolbar + "</script></head><body>" + chart + "</body></html>";
    }

    /// <summary>
    /// Draws the chart of <paramref name="html"/> to the PNG <paramref name="png"/> at the chart's <see cref="Size"/> and
    /// returns that size.
    /// </summary>
    /// <param name="html">A chart as <see cref="PlotlyHtml.Of"/> writes it, or a page <see cref="PlotlyHtml.Save"/> wrote.</param>
    /// <param name="png">The picture to write; its folder is created.</param>
    /// <param name="defaultWidth">The width of a chart whose layout sets none.</param>
    /// <param name="browser">The browser's executable; <see cref="ChromiumLocator.Locate()"/>'s when null.</param>
    /// <exception cref="InvalidOperationException">No browser was found, or it drew no picture.</exception>
    public static async Task<(int Width, int Height)> RenderAsync(string html, string png, int defaultWidth = DefaultWidth, string? browser = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(png);
        (int width, int height) = Size(html, defaultWidth);
        if (browser is null)
        {
            BrowserLookup lookup = ChromiumLocator.Locate();
            browser = lookup.Path ?? throw new InvalidOperationException(lookup.Message);
        }

        string output = Path.GetFullPath(png);
        Directory.CreateDirectory(Path.GetDirectoryName(output)!);
        File.Delete(output);
        string scratch = Directory.CreateTempSubdirectory("pooledhttp-picture-").FullName;
        try
        {
            string page = Path.Combine(scratch, "chart.html");
            await File.WriteAllTextAsync(page, Page(html)).ConfigureAwait(false);
            string[] arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                // One CSS pixel per picture pixel, on a high-density screen too: the picture is the chart's size.
                "--force-device-scale-factor=1",
                $"--user-data-dir={Path.Combine(scratch, "profile")}",
                string.Create(CultureInfo.InvariantCulture, $"--window-size={width},{height}"),
                "--virtual-time-budget=5000", $"--screenshot={output}", new Uri(page).AbsoluteUri,
            ];
            (int exit, _, string error) = await ChildProcess.RunAsync(browser, arguments, TimeSpan.FromMinutes(2)).ConfigureAwait(false);
            if (exit != 0 || !File.Exists(output))
            {
                throw new InvalidOperationException($"{browser} drew no picture (exit {exit}): {error.Trim()}");
            }

            return (width, height);
        }
        finally
        {
            Directory.Delete(scratch, recursive: true);
        }
    }

    private static int? Pixels(JsonNode? value)
        => value is JsonValue number && number.TryGetValue(out double pixels) && pixels > 0 ? (int)Math.Round(pixels) : null;

    // Plotly.NET's chart script writes its layout as one line of JSON.
    [GeneratedRegex(@"var layout = (?<json>\{.*\});\r?$", RegexOptions.Multiline)]
    private static partial Regex Layout();

    [GeneratedRegex(@"<body[^>]*>(?<content>.*)</body>", RegexOptions.Singleline | RegexOptions.IgnoreCase)]
    private static partial Regex Body();
}
