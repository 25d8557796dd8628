using System.Net;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json.Nodes;

namespace NotebookRunner;

/// <summary>
/// One static page for a whole run, <c>report.html</c> in the output folder: the machine, the runtimes
/// measured, and every chapter's tables, charts and printed text in cell order, read back from the
/// executed notebooks. plotly.js goes in once, from the first chapter that displayed it, so the page
/// draws its charts with no network.
/// </summary>
internal static class RunReport
{
    /// <summary>An HTML output this long that holds a script is the embedded plotly.js, not a chart.</summary>
    private const int LibraryLength = 200_000;

    /// <summary>The whole series' report, in the output folder.</summary>
    public const string SeriesFile = "report.html";

    /// <summary>
    /// The report's file name: <see cref="SeriesFile"/> for a run of the whole series, and for a run of some chapters a
    /// name of its own (<c>report-04.html</c>, <c>report-00-03.html</c>), so that running one chapter after the series
    /// leaves the series' report as it was.
    /// </summary>
    public static string FileFor(bool wholeSeries, IEnumerable<string> notebooks)
        => wholeSeries ? SeriesFile : $"report-{string.Join("-", notebooks.Select(n => n.Split('-')[0]).Distinct())}.html";

    /// <summary>Writes the report for <paramref name="notebooks"/> (names, in run order) as <paramref name="fileName"/> and returns its path.</summary>
    public static string Write(string output, string fileName, IReadOnlyList<(string Notebook, string? Failure, TimeSpan Time)> notebooks, string profile)
    {
        var page = new StringBuilder();
        var body = new StringBuilder();
        bool library = false;
        foreach ((string notebook, string? failure, TimeSpan time) in notebooks)
        {
            string executed = Path.Combine(output, "notebooks", notebook + ".ipynb");
            body.Append(CultureInfo($"<section id=\"{Encode(notebook)}\"><h2>{Encode(Title(executed) ?? notebook)}</h2>"));
            body.Append(CultureInfo($"<p class=\"run\">{(failure is null ? "ran" : "FAILED: " + Encode(failure))} in {time.TotalSeconds:0} s</p>"));
            if (File.Exists(executed))
            {
                foreach (JsonObject outputJson in Outputs(executed))
                {
                    string? html = Text(outputJson["data"]?["text/html"]);
                    if (html is not null)
                    {
                        if (html.Length > LibraryLength && html.Contains("<script", StringComparison.Ordinal))
                        {
                            if (!library)
                            {
                                page.Append(html);
                                library = true;
                            }

                            continue;
                        }

                        body.Append("<div class=\"display\">").Append(html).Append("</div>");
                    }
                    else if (Text(outputJson["text"]) is { Length: > 0 } text)
                    {
                        body.Append("<pre>").Append(Encode(text)).Append("</pre>");
                    }
                }
            }

            body.Append("</section>");
        }

        string report = Path.Combine(output, fileName);
        File.WriteAllText(report, $$"""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>PooledHttp workshop: run report</title>
            <style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em} pre{background:#f6f8fa;padding:.5em;overflow-x:auto;font-size:12px} table{border-collapse:collapse;font-size:13px} td,th{border:1px solid #ccc;padding:2px 6px;text-align:right} .run{color:#555}</style>
            </head><body>
            <h1>PooledHttp workshop: run report</h1>
            <p>{{Encode(Machine())}}<br>Profile: {{Encode(profile)}}. Runtimes measured: {{Encode(Runtimes(output, notebooks.Select(n => n.Notebook)))}}.<br>Written {{DateTime.UtcNow:yyyy-MM-dd HH:mm}} UTC. Everything on this page comes from the run; the page loads nothing from the network.</p>
            {{page}}{{body}}
            </body></html>
            """);
        return report;
    }

    /// <summary>The machine the run happened on, in one line.</summary>
    internal static string Machine()
        => $"{Environment.ProcessorCount} cores, {RuntimeInformation.OSDescription.Trim()}, {RuntimeInformation.OSArchitecture}, {RuntimeInformation.FrameworkDescription} (runner)";

    /// <summary>The distinct runtimes the run's notebooks measured on (their summaries' rows), e.g. ".NET 8.0.31, .NET 10.0.12".</summary>
    private static string Runtimes(string output, IEnumerable<string> notebooks)
    {
        var runtimes = new SortedSet<string>(notebooks.SelectMany(n => NotebookSummary.Read(output, n).Rows).Select(r => (string?)r["runtime"]).OfType<string>(), StringComparer.Ordinal);
        return runtimes.Count == 0 ? "none" : string.Join(", ", runtimes);
    }

    /// <summary>The notebook's first heading ("# 04 · Pooled buffers..."), without the hashes.</summary>
    private static string? Title(string executed)
    {
        if (!File.Exists(executed))
        {
            return null;
        }

        var cells = (JsonArray?)JsonNode.Parse(File.ReadAllText(executed))?["cells"];
        string? first = cells?.OfType<JsonObject>().Where(c => (string?)c["cell_type"] == "markdown").Select(c => Text(c["source"])).FirstOrDefault();
        string? heading = first?.Split('\n').FirstOrDefault(l => l.StartsWith("# ", StringComparison.Ordinal));
        return heading?[2..].Trim();
    }

    private static IEnumerable<JsonObject> Outputs(string executed)
    {
        var cells = (JsonArray?)JsonNode.Parse(File.ReadAllText(executed))?["cells"] ?? [];
        return cells.OfType<JsonObject>().SelectMany(c => (c["outputs"] as JsonArray ?? []).OfType<JsonObject>());
    }

    /// <summary>A notebook string field: one string, or an array of lines.</summary>
    private static string? Text(JsonNode? node) => node switch
    {
        JsonArray lines => string.Concat(lines.Select(l => (string?)l)),
        JsonValue value => (string?)value,
        _ => null,
    };

    private static string Encode(string text) => WebUtility.HtmlEncode(text);

    private static string CultureInfo(FormattableString text) => FormattableString.Invariant(text);
}
