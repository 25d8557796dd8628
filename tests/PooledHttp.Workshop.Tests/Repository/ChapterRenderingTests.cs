using PooledHttp.Publishing;
using System.Net;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Notebooks;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Tests.Repository;

/// <summary>
/// Every chapter can be read on GitHub with its results: <c>docs/chapters/NAME.md</c>, rendered from the reference
/// run's executed notebook by <c>tools/Publish/RenderChapters</c>. These tests fail when a page no longer matches the
/// executed notebook it claims to come from, that notebook no longer matches the chapter, or its figures are not
/// the reference run's CSVs.
/// </summary>
public partial class ChapterRenderingTests
{
    private static readonly string Root = RepositoryTests.FindRoot();

    public static TheoryData<string> Chapters() => [.. ChapterNames()];

    private static IEnumerable<string> ChapterNames()
        => Directory.GetFiles(Path.Combine(Root, "notebooks"), "*.ipynb").Order(StringComparer.Ordinal).Select(path => Path.GetFileNameWithoutExtension(path));

    [Theory]
    [MemberData(nameof(Chapters))]
    public void The_executed_notebook_is_this_chapter_and_its_page_is_its_rendering(string name)
    {
        JsonObject executed = Stored(name);
        var cells = (JsonArray)executed["cells"]!;
        var committed = (JsonArray)JsonNode.Parse(File.ReadAllText(Path.Combine(Root, "notebooks", name + ".ipynb")))!["cells"]!;
        Assert.True(committed.Count == cells.Count, $"{name}: the chapter has {committed.Count} cells, its reference execution {cells.Count}: run the series and tools/Publish/RenderChapters again.");
        for (int i = 0; i < cells.Count; i++)
        {
            Assert.True(
                (string?)cells[i]!["cell_type"] == (string?)committed[i]!["cell_type"] && Source(cells[i]!) == Source(committed[i]!),
                $"{name}, cell {i}: the chapter changed since the reference run executed it; run the series and tools/Publish/RenderChapters again.");
        }

        string page = File.ReadAllText(Path.Combine(Root, ChapterRendering.PagesFolder, name + ".md"));
        Assert.Equal(ChapterRendering.Markdown(name, executed), page);
        foreach ((string picture, _) in ChapterRendering.Charts(name, executed))
        {
            var file = new FileInfo(Path.Combine(Root, ChapterRendering.PagesFolder, picture));
            Assert.True(file.Exists && file.Length > 10_000, $"{name}: {picture} is missing or empty");
        }

        Assert.DoesNotContain("plotly.js (basic - minified)", File.ReadAllText(Path.Combine(Root, ChapterRendering.NotebooksFolder, name + ".ipynb")), StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Chapters))]
    public void Every_row_the_page_shows_has_the_reference_csvs_figure_and_every_csv_has_rows_on_it(string name)
    {
        string csv = Path.Combine(Root, "data", "results", "reference", name + ".csv");
        string page = WebUtility.HtmlDecode(File.ReadAllText(Path.Combine(Root, ChapterRendering.PagesFolder, name + ".md")));
        if (!File.Exists(csv))
        {
            Assert.DoesNotContain("<th>allocated / op</th>", page, StringComparison.Ordinal);
            return;
        }

        // A measured-rows table starts each row with strategy, payload and runtime, then the bytes per operation.
        int shown = 0;
        List<string> differ = [];
        // Two benchmark classes can measure the same strategy at the same size (chapter 04's ladder and sweep): either figure will do.
        foreach (IGrouping<string, MeasuredRow> same in ResultsCsv.Read(csv).GroupBy(row => $"<tr><td>{row.Label}</td><td>{(row.PayloadBytes is int size ? ByteUnits.Format(size) : "-")}</td><td>{row.Runtime}</td><td>"))
        {
            HashSet<string> figures = [.. same.Select(row => ByteUnits.Format(row.AllocatedBytes))];
            foreach (Match cell in Regex.Matches(page, Regex.Escape(same.Key) + "([^<]*)</td>"))
            {
                shown++;
                if (!figures.Contains(cell.Groups[1].Value))
                {
                    differ.Add($"{same.Key}: the page shows {cell.Groups[1].Value}, the CSV has {string.Join(" or ", figures)}");
                }
            }
        }

        Assert.True(shown > 0, $"{name}: no row of the reference CSV is on the page: is the page from another run?");
        Assert.True(differ.Count == 0, $"{name}: the page and the reference CSV disagree (another run's CSV or page?):\n{string.Join('\n', differ)}");
    }

    [Fact]
    public void The_readme_links_every_chapters_page_and_every_page_links_resolve()
    {
        string readme = File.ReadAllText(Path.Combine(Root, "README.md"));
        foreach (string name in ChapterNames())
        {
            Assert.Contains($"(docs/chapters/{name}.md)", readme, StringComparison.Ordinal);
            string page = File.ReadAllText(Path.Combine(Root, ChapterRendering.PagesFolder, name + ".md"));
            foreach (Match link in LocalLink().Matches(page))
            {
                string target = link.Groups[1].Value.Split('#')[0];
                string path = Path.GetFullPath(Path.Combine(Root, ChapterRendering.PagesFolder, target));
                Assert.True(File.Exists(path) || Directory.Exists(path), $"{name}.md links {target}, which does not exist");
            }
        }
    }

    [Fact]
    public void A_page_keeps_prose_code_and_text_draws_charts_as_pictures_and_leaves_plotly_js_out()
    {
        var notebook = (JsonObject)JsonNode.Parse("""
            {"cells": [
              {"cell_type": "markdown", "source": ["# 99 · Test\n", "See [04](04-pooled-buffers.ipynb#anchor), the [glossary](../docs/glossary.md) and [S0](https://example.org/x)."]},
              {"cell_type": "code", "source": "Console.WriteLine(1);", "outputs": [
                {"output_type": "display_data", "data": {"text/html": "<script type=\"text/javascript\">/** plotly.js */</script>"}},
                {"output_type": "stream", "name": "stdout", "text": ["one\n", "two\n"]},
                {"output_type": "display_data", "data": {"text/html": "<table>\n\n<tr><td>x</td></tr>\n</table>"}},
                {"output_type": "display_data", "data": {"text/html": "<div><div id=\"a\"><!-- Plotly chart will be drawn inside this DIV --></div><script>var d={\"title\":{\"text\":\"99 · bytes \\u0026 more\"}}</script></div>"}}
              ]}
            ]}
            """)!.AsObject();

        string page = ChapterRendering.Markdown("99-test", ChapterRendering.WithoutPlotlyScript(notebook));

        Assert.Contains("See [04](04-pooled-buffers.md#anchor), the [glossary](../../docs/glossary.md) and [S0](https://example.org/x).", page, StringComparison.Ordinal);
        Assert.Contains("```csharp\nConsole.WriteLine(1);\n```\n\n```text\none\ntwo\n```", page, StringComparison.Ordinal);
        Assert.Contains("<table>\n<tr><td>x</td></tr>\n</table>\n\n", page, StringComparison.Ordinal); // no blank line inside: one HTML block
        Assert.Contains("![99 · bytes & more](img/99-test-01-3.png)", page, StringComparison.Ordinal);
        Assert.DoesNotContain("plotly.js", page, StringComparison.Ordinal);
        Assert.Equal(["img/99-test-01-3.png"], ChapterRendering.Charts("99-test", notebook).Select(c => c.Picture));
    }

    private static JsonObject Stored(string name)
    {
        string path = Path.Combine(Root, ChapterRendering.NotebooksFolder, name + ".ipynb");
        Assert.True(File.Exists(path), $"{name}: no executed notebook in {ChapterRendering.NotebooksFolder}; run the series, then dotnet run --project tools/Publish/RenderChapters");
        return (JsonObject)JsonNode.Parse(File.ReadAllText(path))!;
    }

    private static string Source(JsonNode cell) => cell["source"] is JsonArray lines ? string.Concat(lines.Select(l => (string?)l)) : (string?)cell["source"] ?? string.Empty;

    [GeneratedRegex(@"\]\((?!https?:|#)([^)\s]+)\)")]
    private static partial Regex LocalLink();
}
