using System.Globalization;
using PooledHttp.Workshop.Charts;
using System.Text;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;

namespace PooledHttp.Publishing;

/// <summary>
/// An executed chapter as a Markdown page GitHub displays as it is: the prose, the code, the printed outputs
/// and tables, and each chart as a picture (rendered separately, by <c>tools/Publish/render-chart.sh</c>, to the file
/// <see cref="Charts"/> names). A pure function of the executed notebook, so a test can render the committed
/// reference notebooks again and require the committed pages.
/// </summary>
/// <remarks>
/// The pages live in <c>docs/chapters/</c>, the pictures in <c>docs/chapters/img/</c>, the executed notebooks
/// they come from in <c>data/results/reference/notebooks/</c>; <c>tools/Publish/RenderChapters</c> writes all three
/// from a run's output folder.
/// </remarks>
public static partial class ChapterRendering
{
    /// <summary>The folder of the pages, relative to the repository root.</summary>
    public const string PagesFolder = "docs/chapters";

    /// <summary>The folder of the executed notebooks the pages come from, relative to the repository root.</summary>
    public const string NotebooksFolder = "data/results/reference/notebooks";

    /// <summary>What replaces plotly.js itself in a stored notebook: 1.2 MB per chapter that no page shows.</summary>
    public const string PlotlyScriptPlaceholder = "<!-- plotly.js was displayed here (PlotlyHtml.Script()); left out of the stored notebook -->";

    /// <summary>Whether an HTML output is a chart (a Plotly.NET figure as the kit's formatter writes it).</summary>
    public static bool IsChart(string html) => html.Contains("Plotly chart will be drawn inside this DIV", StringComparison.Ordinal);

    /// <summary>Whether an HTML output is plotly.js itself (every chapter's setup cell displays it once).</summary>
    public static bool IsPlotlyScript(string html) => html.StartsWith("<script", StringComparison.Ordinal) && html.Contains("plotly.js", StringComparison.Ordinal) && !IsChart(html);

    /// <summary><paramref name="notebook"/> with plotly.js itself replaced by <see cref="PlotlyScriptPlaceholder"/>; every other output kept.</summary>
    public static JsonObject WithoutPlotlyScript(JsonObject notebook)
    {
        ArgumentNullException.ThrowIfNull(notebook);
        var copy = (JsonObject)notebook.DeepClone();
        foreach (JsonObject output in Outputs(copy).Select(o => o.Output))
        {
            if (output["data"]?["text/html"] is JsonNode html && IsPlotlyScript(Text(html)))
            {
                output["data"]!["text/html"] = PlotlyScriptPlaceholder;
            }
        }

        return copy;
    }

    /// <summary>Each chart output of <paramref name="notebook"/> with the picture file its page links to, relative to <see cref="PagesFolder"/>.</summary>
    public static IEnumerable<(string Picture, string Html)> Charts(string name, JsonObject notebook)
        => Outputs(notebook)
            .Where(o => o.Output["data"]?["text/html"] is JsonNode html && IsChart(Text(html)))
            .Select(o => (Picture(name, o.Cell, o.Index), Text(o.Output["data"]!["text/html"]!)));

    /// <summary>The page of the chapter <paramref name="name"/> ("04-pooled-buffers") from its executed notebook.</summary>
    public static string Markdown(string name, JsonObject notebook)
    {
        ArgumentNullException.ThrowIfNull(notebook);
        var page = new StringBuilder();
        page.Append(CultureInfo.InvariantCulture, $"<!-- Rendered from the reference run's executed notebook ({NotebooksFolder}/{name}.ipynb) by `dotnet run --project tools/Publish/RenderChapters`. Do not edit: run that again. -->\n\n");
        page.Append(CultureInfo.InvariantCulture, $"> **Reading, not running.** This is [`notebooks/{name}.ipynb`](../../notebooks/{name}.ipynb) as the reference run executed it ([its machine](../../data/results/reference/MACHINE.md)); every output below is that run's. Run it yourself for your machine's figures.\n\n");
        var cells = (JsonArray)notebook["cells"]!;
        for (int i = 0; i < cells.Count; i++)
        {
            var cell = (JsonObject)cells[i]!;
            string source = Text(cell["source"]!);
            if ((string?)cell["cell_type"] == "markdown")
            {
                page.Append(Links(source).TrimEnd()).Append("\n\n");
                continue;
            }

            page.Append("```csharp\n").Append(source.TrimEnd()).Append("\n```\n\n");
            var text = new StringBuilder();
            void FlushText()
            {
                if (text.Length > 0)
                {
                    page.Append("```text\n").Append(text.ToString().TrimEnd('\n')).Append("\n```\n\n");
                    text.Clear();
                }
            }

            var outputs = (JsonArray?)cell["outputs"] ?? [];
            for (int k = 0; k < outputs.Count; k++)
            {
                var output = (JsonObject)outputs[k]!;
                if ((string?)output["output_type"] == "stream")
                {
                    text.Append(Text(output["text"]!));
                    continue;
                }

                if ((string?)output["output_type"] == "error")
                {
                    text.Append(CultureInfo.InvariantCulture, $"{(string?)output["ename"]}: {(string?)output["evalue"]}\n");
                    continue;
                }

                JsonNode? data = output["data"];
                if (data?["text/html"] is JsonNode htmlNode)
                {
                    string html = Text(htmlNode);
                    if (IsPlotlyScript(html) || html == PlotlyScriptPlaceholder)
                    {
                        continue;
                    }

                    FlushText();
                    if (IsChart(html))
                    {
                        string title = ChartTitle().Match(html) is { Success: true } m ? Regex.Unescape(m.Groups[1].Value) : "chart";
                        page.Append(CultureInfo.InvariantCulture, $"![{title.Replace('[', '(').Replace(']', ')')}]({Picture(name, i, k)})\n\n");
                    }
                    else
                    {
                        // GitHub shows tables and simple markup as they are. An HTML block runs to the next blank line, so
                        // blank lines inside it go (a <pre>'s line breaks stay); the blank line after it ends it.
                        page.Append(BlankLines().Replace(html.Replace("\r", string.Empty, StringComparison.Ordinal), "\n").Trim()).Append("\n\n");
                    }
                }
                else if (data?["text/plain"] is JsonNode plain)
                {
                    text.Append(Text(plain)).Append('\n');
                }
            }

            FlushText();
        }

        return page.ToString().TrimEnd() + "\n";
    }

    /// <summary>A picture's file, relative to <see cref="PagesFolder"/>: the chapter, the cell and the output's place in it.</summary>
    private static string Picture(string name, int cell, int output) => string.Create(CultureInfo.InvariantCulture, $"img/{name}-{cell:D2}-{output}.png");

    /// <summary>Links of a notebook's prose, made to work from <see cref="PagesFolder"/>: a chapter to its page, anything else up two folders.</summary>
    private static string Links(string markdown)
        => RelativeLink().Replace(markdown, m =>
        {
            string target = m.Groups["target"].Value;
            if (NotebookLink().Match(target) is { Success: true } chapter)
            {
                return $"]({chapter.Groups["name"].Value}.md{chapter.Groups["anchor"].Value})";
            }

            return target.StartsWith("../", StringComparison.Ordinal) ? $"](../../{target[3..]})" : $"](../../notebooks/{target})";
        });

    private static IEnumerable<(int Cell, int Index, JsonObject Output)> Outputs(JsonObject notebook)
    {
        var cells = (JsonArray)notebook["cells"]!;
        for (int i = 0; i < cells.Count; i++)
        {
            if (cells[i]!["outputs"] is JsonArray outputs)
            {
                for (int k = 0; k < outputs.Count; k++)
                {
                    yield return (i, k, (JsonObject)outputs[k]!);
                }
            }
        }
    }

    /// <summary>nbformat's multiline string: one string, or an array of lines.</summary>
    /// <summary>A notebook's text field, stored as one string or as a list of lines, as one string.</summary>
    internal static string Text(JsonNode node) => node is JsonArray lines ? string.Concat(lines.Select(l => (string?)l)) : (string?)node ?? string.Empty;

    // A relative Markdown link target: not a URL, not an in-page anchor.
    [GeneratedRegex(@"\]\((?<target>(?!https?:|mailto:|#)[^)\s]+)\)")]
    private static partial Regex RelativeLink();

    [GeneratedRegex(@"\n[ \t]*\n")]
    private static partial Regex BlankLines();

    [GeneratedRegex(@"^(?<name>\d\d[a-z]?-[a-z0-9-]+)\.ipynb(?<anchor>#.*)?$")]
    private static partial Regex NotebookLink();

    [GeneratedRegex("\"title\":\\{\"text\":\"((?:[^\"\\\\]|\\\\.)*)\"")]
    private static partial Regex ChartTitle();
}
