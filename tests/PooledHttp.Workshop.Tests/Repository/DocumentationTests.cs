using System.Text.RegularExpressions;

namespace PooledHttp.Tests.Repository;

/// <summary>
/// The pages a reader meets before any chapter: the README, <c>docs/*.md</c> and the chapter index. Their links
/// lead somewhere, the README stays short, the answer key stays off the learner's path, and the dependency
/// page lists what <c>Directory.Packages.props</c> pins.
/// </summary>
public partial class DocumentationTests
{
    private static readonly string Root = RepositoryTests.FindRoot();

    private static string ChapterIndex => Path.Combine(Root, "docs", "chapters", "index.md");

    /// <summary>The hand-written pages; the chapter pages are rendered, and <see cref="ChapterRenderingTests"/> checks theirs.</summary>
    public static TheoryData<string> Pages()
        => [.. new[] { Path.Combine(Root, "README.md"), ChapterIndex }
            .Concat(Directory.GetFiles(Path.Combine(Root, "docs"), "*.md").Order(StringComparer.Ordinal))
            .Select(path => Path.GetRelativePath(Root, path).Replace('\\', '/'))];

    [Theory]
    [MemberData(nameof(Pages))]
    public void Every_local_link_reaches_a_file_and_every_anchor_a_heading(string page)
    {
        string path = Path.Combine(Root, page);
        List<string> broken = [];
        foreach (Match link in LocalLink().Matches(WithoutCode(File.ReadAllText(path))))
        {
            string[] parts = link.Groups["target"].Value.Split('#', 2);
            string target = parts[0].Length == 0 ? path : Path.GetFullPath(Path.Combine(Path.GetDirectoryName(path)!, Uri.UnescapeDataString(parts[0])));
            if (!File.Exists(target) && !Directory.Exists(target))
            {
                broken.Add($"{link.Value}: no such file");
            }
            else if (parts.Length == 2 && target.EndsWith(".md", StringComparison.Ordinal) && !Anchors(File.ReadAllText(target)).Contains(parts[1]))
            {
                broken.Add($"{link.Value}: no heading with that anchor");
            }
        }

        Assert.True(broken.Count == 0, $"{page}:\n{string.Join('\n', broken)}");
    }

    [Fact]
    public void The_chapter_index_links_every_chapters_page_and_the_readme_links_the_index()
    {
        string index = File.ReadAllText(ChapterIndex);
        foreach (string notebook in Directory.GetFiles(Path.Combine(Root, "notebooks"), "*.ipynb"))
        {
            Assert.Contains($"({Path.GetFileNameWithoutExtension(notebook)}.md)", index, StringComparison.Ordinal);
        }

        Assert.Contains("(docs/chapters/index.md)", File.ReadAllText(Path.Combine(Root, "README.md")), StringComparison.Ordinal);
    }

    [Fact]
    public void The_readme_reads_in_at_most_1000_words()
    {
        // Counted as wc -w counts: whitespace-separated tokens of the whole file, code and links included.
        int words = File.ReadAllText(Path.Combine(Root, "README.md")).Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries).Length;
        Assert.True(words <= 1000, $"README.md: {words:N0} words, over 1,000: move detail into docs/ and link it.");
    }

    [Fact]
    public void The_readme_leads_to_the_teachers_page_and_not_to_its_answer_key()
    {
        string readme = File.ReadAllText(Path.Combine(Root, "README.md"));
        Assert.Contains("(docs/teaching.md)", readme, StringComparison.Ordinal);
        Assert.Contains("(docs/troubleshooting.md)", readme, StringComparison.Ordinal);
        Assert.DoesNotContain("teaching-answers", readme, StringComparison.Ordinal);
        Assert.DoesNotContain("teaching-answers", File.ReadAllText(ChapterIndex), StringComparison.Ordinal);
        Assert.Contains("(teaching-answers.md)", File.ReadAllText(Path.Combine(Root, "docs", "teaching.md")), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("docs/chapters/index.md")]
    [InlineData("docs/teaching.md")]
    [InlineData("docs/teaching-answers.md")]
    [InlineData("docs/troubleshooting.md")]
    public void A_page_read_before_or_beside_the_chapters_types_no_measured_figure(string page)
    {
        // The answer key explains the mechanism and points at the cell that prints the figure: a typed figure goes stale.
        string[] typed = [.. ProseTests.TypedFigures(File.ReadAllText(Path.Combine(Root, page)))];
        Assert.True(typed.Length == 0, $"{page}: figures typed into prose: {string.Join("; ", typed)}");
    }

    [Fact]
    public void The_dependency_page_lists_every_pinned_package_at_its_version()
    {
        string page = File.ReadAllText(Path.Combine(Root, "docs", "dependencies.md"));
        var rows = page.Split('\n')
            .Where(line => line.StartsWith('|'))
            .Select(line => line.Split('|').Select(cell => cell.Trim()).ToArray())
            .Where(cells => cells.Length > 3)
            .ToDictionary(cells => cells[1], cells => cells[2], StringComparer.OrdinalIgnoreCase);
        List<string> missing = [];
        foreach (Match pin in PackageVersion().Matches(File.ReadAllText(Path.Combine(Root, "Directory.Packages.props"))))
        {
            string id = pin.Groups["id"].Value, version = pin.Groups["version"].Value;
            if (!rows.TryGetValue(id, out string? listed) || !listed.Contains(version, StringComparison.Ordinal))
            {
                missing.Add($"{id} {version}");
            }
        }

        Assert.True(missing.Count == 0, $"docs/dependencies.md lacks a row (package | version | …) for: {string.Join(", ", missing)}");
    }

    /// <summary>GitHub's anchors for a page's headings: lower case, punctuation dropped, each space a hyphen.</summary>
    private static HashSet<string> Anchors(string markdown)
        => [.. Heading().Matches(CodeBlock().Replace(markdown, string.Empty)).Select(m => AnchorChars().Replace(m.Groups["text"].Value.Trim().ToLowerInvariant(), string.Empty).Replace(' ', '-'))];

    private static string WithoutCode(string markdown) => CodeSpan().Replace(CodeBlock().Replace(markdown, string.Empty), string.Empty);

    [GeneratedRegex(@"\]\((?<target>(?!https?:|mailto:)[^)\s]+)\)")]
    private static partial Regex LocalLink();

    [GeneratedRegex(@"^#{1,6}\s+(?<text>.+)$", RegexOptions.Multiline)]
    private static partial Regex Heading();

    [GeneratedRegex(@"[^\p{L}\p{N} _-]")]
    private static partial Regex AnchorChars();

    [GeneratedRegex(@"```.*?```", RegexOptions.Singleline)]
    private static partial Regex CodeBlock();

    [GeneratedRegex(@"`[^`\n]*`")]
    private static partial Regex CodeSpan();

    [GeneratedRegex(@"<PackageVersion Include=""(?<id>[^""]+)"" Version=""(?<version>[^""]+)""")]
    private static partial Regex PackageVersion();
}
