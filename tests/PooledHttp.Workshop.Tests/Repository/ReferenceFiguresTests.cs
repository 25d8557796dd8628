using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Notebooks;

namespace PooledHttp.Tests.Repository;

/// <summary>The README's headline figures are the reference run's, recomputed, never typed.</summary>
public class ReferenceFiguresTests
{
    private static string Root => RepositoryTests.FindRoot();

    [Fact]
    public void The_readme_figures_match_the_reference_csvs()
    {
        string readme = File.ReadAllText(Path.Combine(Root, "README.md"));
        string expected = ReferenceFigures.Table(Path.Combine(Root, "data", "results", "reference"));
        Assert.True(ReferenceFigures.Current(readme) == expected,
            "The README's reference figures differ from data/results/reference: run `dotnet run --project tools/ReadmeFigures` and commit the README.\n"
            + $"README:\n{ReferenceFigures.Current(readme)}\nCSVs:\n{expected}");
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
    public void Every_picture_the_readme_shows_is_committed_and_every_chapter_has_one()
    {
        string readme = File.ReadAllText(Path.Combine(Root, "README.md"));
        string[] pictures = System.Text.RegularExpressions.Regex.Matches(readme, @"(?:<img src=""|!\[[^\]]*\]\()([^"")]+\.png)")
            .Select(m => m.Groups[1].Value).ToArray();
        Assert.All(pictures, picture => Assert.True(File.Exists(Path.Combine(Root, picture)), $"README shows {picture}, which is not committed"));
        foreach (string notebook in Directory.EnumerateFiles(Path.Combine(Root, "notebooks"), "*.ipynb"))
        {
            string chapter = Path.GetFileName(notebook)[..2];
            Assert.Contains($"docs/charts/{chapter}.png", pictures);
        }
    }
}
