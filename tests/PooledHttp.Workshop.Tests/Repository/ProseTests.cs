using System.Text.Json.Nodes;
using System.Text.RegularExpressions;

namespace PooledHttp.Tests.Repository;

/// <summary>
/// Prose that stays true of its outputs: a measured figure appears in a cell's output, never typed into a markdown
/// cell or the README, where the next run would leave it stale; a chapter reads in at most 1,200 words of prose.
/// </summary>
/// <remarks>
/// What counts as a typed result: a figure with a fractional part ("68.36 KiB"), a ratio ("2x", "1.7 times"), a
/// percentage, or a size in decimal units that is not one of the workshop's parameters. Body sizes in binary units,
/// byte counts and durations in whole numbers are parameters (a 1 MiB body, a 200 ms iteration). A line that names
/// its source (S0 to S4, or "published") quotes that source's figure, which does not go stale.
/// </remarks>
public partial class ProseTests
{
    private static readonly string Root = RepositoryTests.FindRoot();

    /// <summary>
    /// Figures with a unit that are not results: the workshop's parameters, the runtime's constants and arithmetic on
    /// them. Anything else with a unit fails unless its line quotes a source. Whole powers of two in KiB, MiB and GiB
    /// pass without a line here: every body, buffer and array size the series chooses is one.
    /// </summary>
    private static readonly HashSet<string> Parameters = new(StringComparer.Ordinal)
    {
        "70 KB",            // S2's small payload
        "70,000 B",         // the same, in bytes
        "69 KiB",           // 70,000 B in binary units, rounded up (00 explains the units)
        "2 MB",             // S2's and S3's large payload
        "2,000,000 B",      // the same, in bytes
        "5 MB",             // S0's headline, and the workshop's title
        "10 MB",            // chapter 01's largest allocation
        "10,000,000 bytes", // the same, which a pool made with Create() hands back as new byte[10,000,000]
        "100 B",            // chapter 01's smallest allocation
        "100 bytes",        // the same
        "1,024 B",          // 1 KiB, as 00 defines it
        "1,048,576 B",      // 1 MiB, as 00 defines it
        "1,048,576 bytes",  // the same
        "24 bytes",         // a byte array's header on 64-bit: object header, method table pointer, length
        "85,000 bytes",     // the runtime's large object threshold
        "100,000 bytes",    // S3's POST body
        "256 B",            // the smallest array RecyclableMemoryStream's default pool and S0's stream start with
        "256 bytes",        // the same
        "100 ms",           // the quick profile's iteration time
        "200 ms",           // the /slow endpoint's pause between pieces
        "2 ms",             // Pace.Network's pause between writes
        "99.9%",            // BenchmarkDotNet's confidence level for its error column
    };

    public static TheoryData<string> Chapters()
        => [.. Directory.GetFiles(Path.Combine(Root, "notebooks"), "*.ipynb").Order(StringComparer.Ordinal).Select(path => Path.GetFileNameWithoutExtension(path))];

    /// <summary>Counts every whitespace-separated token of the markdown, code spans and link targets included, as a reader's word counter would.</summary>
    [Theory]
    [MemberData(nameof(Chapters))]
    public void A_chapter_reads_in_at_most_1200_words_of_prose(string name)
    {
        int words = Markdown(name).Sum(cell => Words(cell));
        Assert.True(words <= 1200, $"{name}: {words:N0} words of prose, over 1,200");
    }

    [Theory]
    [MemberData(nameof(Chapters))]
    public void No_markdown_cell_types_a_measured_figure(string name)
    {
        string[] typed = [.. Markdown(name).SelectMany(TypedFigures)];
        Assert.True(typed.Length == 0, $"{name}: figures typed into prose (point at the cell that prints them instead): {string.Join("; ", typed)}");
    }

    [Fact]
    public void The_readme_types_no_measured_figure()
    {
        string[] typed = [.. TypedFigures(File.ReadAllText(Path.Combine(Root, "README.md")))];
        Assert.True(typed.Length == 0, $"README: figures typed into prose: {string.Join("; ", typed)}");
    }

    [Theory]
    [InlineData("The pooled read allocated 3.71 KB here.", "3.71 KB")]
    [InlineData("Chunked is 2x slower.", "2x")]
    [InlineData("It saves 40% of the time.", "40%")]
    [InlineData("about 1.7 times the body", "1.7 times")]
    [InlineData("a body of 52 KB", "52 KB")]
    [InlineData("a 1 MiB body, read 16 KiB at a time, for 200 ms", null)]
    [InlineData("the pooled read kept 3 KiB", "3 KiB")]
    [InlineData("a download took 45 ms", "45 ms")]
    [InlineData("it allocated 2,647 B", "2,647 B")]
    [InlineData("S0 published 5,189,140 B and 1.03 ms", null)]
    [InlineData("`new byte[3.5]` in code is not prose", null)]
    [InlineData("85,000 bytes is the large object threshold", null)]
    [InlineData("S3 reported 39% fewer allocations", null)]
    public void The_rule_flags_results_and_lets_parameters_and_quotations_through(string line, string? flagged)
    {
        string[] typed = [.. TypedFigures(line)];
        if (flagged is null)
        {
            Assert.Empty(typed);
        }
        else
        {
            Assert.Equal([flagged], typed);
        }
    }

    internal static IEnumerable<string> Markdown(string name)
    {
        var cells = (JsonArray)JsonNode.Parse(File.ReadAllText(Path.Combine(Root, "notebooks", name + ".ipynb")))!["cells"]!;
        return cells.OfType<JsonObject>()
            .Where(cell => (string?)cell["cell_type"] == "markdown")
            .Select(cell => string.Concat(((JsonArray)cell["source"]!).Select(line => (string?)line)));
    }

    internal static int Words(string markdown)
        => markdown.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries).Length;

    private static bool PowerOfTwoSize(string number, string unit)
        => unit is "KiB" or "MiB" or "GiB" && int.TryParse(number, out int n) && n > 0 && (n & (n - 1)) == 0;

    internal static IEnumerable<string> TypedFigures(string markdown)
    {
        foreach (string line in Prose(markdown).Split('\n'))
        {
            if (Quotation().IsMatch(line))
            {
                continue;
            }

            foreach (Match m in Figure().Matches(line))
            {
                string figure = m.Value;
                string unit = m.Groups["unit"].Value;
                if (!Parameters.Contains(figure) && !PowerOfTwoSize(m.Groups["number"].Value, unit))
                {
                    yield return figure;
                }
            }
        }
    }

    /// <summary>The text a reader reads as prose: code blocks, code spans and link targets removed.</summary>
    private static string Prose(string markdown)
        => LinkTarget().Replace(CodeSpan().Replace(CodeBlock().Replace(markdown, string.Empty), string.Empty), "]");

    [GeneratedRegex(@"(?<![\w.,])(?<number>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(?<unit>KiB|MiB|GiB|KB|MB|GB|kB|bytes|B|ms|µs|ns|seconds|s|%|×|x|times)(?!\w)")]
    private static partial Regex Figure();

    [GeneratedRegex(@"\bS[0-4]\b|\bpublished\b", RegexOptions.IgnoreCase)]
    private static partial Regex Quotation();

    [GeneratedRegex(@"```.*?```", RegexOptions.Singleline)]
    private static partial Regex CodeBlock();

    [GeneratedRegex(@"`[^`\n]*`")]
    private static partial Regex CodeSpan();

    [GeneratedRegex(@"\]\([^)]*\)")]
    private static partial Regex LinkTarget();
}
