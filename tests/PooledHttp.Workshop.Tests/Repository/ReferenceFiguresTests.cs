using PooledHttp.Publishing;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Notebooks;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Tests.Repository;

/// <summary>The results page's headline figures are the reference run's, recomputed, never typed; the README, read first, shows none.</summary>
public class ReferenceFiguresTests
{
    private static string Root => RepositoryTests.FindRoot();

    [Fact]
    public void The_results_page_figures_match_the_reference_csvs()
    {
        string page = File.ReadAllText(Path.Combine(Root, ReferenceFigures.Page));
        string expected = ReferenceFigures.Table(Path.Combine(Root, "data", "results", "reference"));
        Assert.True(ReferenceFigures.Current(page) == expected,
            "The results page's reference figures differ from data/results/reference: run `dotnet run --project tools/Publish/ResultsPage` and commit docs/results.md.\n"
            + $"page:\n{ReferenceFigures.Current(page)}\nCSVs:\n{expected}");
    }

    [Fact]
    public void The_table_follows_the_csvs_it_is_given()
    {
        // A copy of the reference run with chapter 05's pooled POST doubled: the table must say so.
        string folder = Path.Combine(Path.GetTempPath(), "pooledhttp-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(folder);
        foreach (string csv in Directory.EnumerateFiles(Path.Combine(Root, "data", "results", "reference"), "*.csv"))
        {
            File.Copy(csv, Path.Combine(folder, Path.GetFileName(csv)));
        }

        string bodies = Path.Combine(folder, "05-request-bodies.csv");
        var rows = ResultsCsv.Read(bodies).ToList();
        MeasuredRow pooled = rows.Single(r => r.Benchmark == "RequestBodies" && r.Strategy == "PooledJsonContent" && r.PayloadBytes == 2_000_000);
        rows[rows.IndexOf(pooled)] = pooled with { AllocatedBytes = pooled.AllocatedBytes * 2 };
        File.Delete(bodies);
        ResultsCsv.Append(bodies, rows);

        string table = ReferenceFigures.Table(folder);
        Assert.Contains($"pooled content {ByteUnits.Format(pooled.AllocatedBytes * 2)}", table, StringComparison.Ordinal);
        Assert.NotEqual(ReferenceFigures.Table(Path.Combine(Root, "data", "results", "reference")), table);
    }

    [Fact]
    public void A_readme_without_the_markers_is_refused_with_the_lines_to_add()
    {
        var error = Assert.Throws<InvalidOperationException>(() => ReferenceFigures.Update("# no table here", Path.Combine(Root, "data", "results", "reference")));
        Assert.Contains(ReferenceFigures.Start, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Every_picture_the_results_page_shows_is_committed_every_chapter_has_one_and_the_readme_shows_none()
    {
        static string[] Pictures(string markdown) => System.Text.RegularExpressions.Regex.Matches(markdown, @"(?:<img src=""|!\[[^\]]*\]\()([^"")]+\.png)")
            .Select(m => m.Groups[1].Value).ToArray();
        string[] pictures = Pictures(File.ReadAllText(Path.Combine(Root, ReferenceFigures.Page)));
        Assert.All(pictures, picture => Assert.True(File.Exists(Path.Combine(Root, "docs", picture)), $"the results page shows {picture}, which is not committed"));
        foreach (string notebook in Directory.EnumerateFiles(Path.Combine(Root, "notebooks"), "*.ipynb"))
        {
            string chapter = Path.GetFileName(notebook)[..2];
            if (chapter != "04" || !notebook.Contains("04a", StringComparison.Ordinal))
            {
                Assert.Contains($"charts/{chapter}.png", pictures);
            }
        }

        // The README is read before any chapter: a chart of results there answers every chapter's question first.
        Assert.Empty(Pictures(File.ReadAllText(Path.Combine(Root, "README.md"))));
    }
}
