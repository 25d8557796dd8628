using System.Text.RegularExpressions;

namespace PooledHttp.Tests.Repository;

/// <summary>The promises the repository makes outside the code: CI and the README agree (the devcontainer: DevContainerTests).</summary>
public partial class RepositoryTests
{
    private static readonly string Root = FindRoot();

    [Fact]
    public async Task In_an_editor_results_go_where_the_readme_says_and_git_ignores_them()
    {
        // No runner here (only the serial exercise tests set its variable, and never while this runs): the editor's folder.
        string folder = PooledHttp.Workshop.Notebooks.WorkshopPaths.ResultsFolder;
        Assert.Equal(Path.Combine(Root, "data", "results"), folder);
        Assert.Contains("results are appended to `data/results/NN-name.csv` (git-ignored)", File.ReadAllText(Path.Combine(Root, "README.md")), StringComparison.Ordinal);
        string file = Path.GetRelativePath(Root, Path.Combine(folder, "07-under-load.csv")).Replace('\\', '/');
        ChildResult git = await ChildProcess.RunAsync("git", ["check-ignore", "-q", file], TimeSpan.FromMinutes(1), workingDirectory: Root);
        Assert.True(git.ExitCode == 0, $"git does not ignore {file}: {git.Error}");
    }

    [Fact]
    public void The_kit_never_names_an_FSharp_Core_type_so_the_chart_libraries_context_is_the_only_FSharp_Core_it_meets()
    {
        // notebooks/workshop.csx loads Plotly.NET with its own FSharp.Core beside the kernel's; a kit that named an
        // FSharp.Core type itself would bind to whichever the host offers first (see the kernel fidelity test).
        string[] references = typeof(PooledHttp.Workshop.Charts.PlotlyHtml).Assembly.GetReferencedAssemblies().Select(a => a.Name!).ToArray();
        Assert.Contains("Plotly.NET", references);
        Assert.DoesNotContain("FSharp.Core", references);
        Assert.DoesNotContain("Giraffe.ViewEngine", references);
    }

    [Fact]
    public void Ci_runs_the_test_command_the_readme_gives()
    {
        string readme = File.ReadAllText(Path.Combine(Root, "README.md"));
        Match command = TestCommand().Match(readme);
        Assert.True(command.Success, "the README shows no `dotnet test` command");
        string[] ci = File.ReadAllLines(Path.Combine(Root, ".ci", "run")).Select(l => l.Trim()).ToArray();
        Assert.Contains(command.Groups["cmd"].Value.Trim(), ci);
    }

    [Fact]
    public void Every_central_package_version_is_used_and_every_reference_has_one()
    {
        string props = File.ReadAllText(Path.Combine(Root, "Directory.Packages.props"));
        var versioned = PackageVersion().Matches(props).Select(m => m.Groups["id"].Value).ToHashSet(StringComparer.OrdinalIgnoreCase);
        var referenced = Directory.EnumerateFiles(Root, "*.csproj", SearchOption.AllDirectories)
            .Where(p => !p.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .SelectMany(p => PackageReference().Matches(File.ReadAllText(p)).Select(m => m.Groups["id"].Value))
            .ToHashSet(StringComparer.OrdinalIgnoreCase);
        Assert.Empty(referenced.Except(versioned));
        Assert.Empty(versioned.Except(referenced));
    }

    internal static string FindRoot() => PooledHttp.RepositoryRoot.Find();

    [GeneratedRegex(@"^\s*(?<cmd>dotnet test[^\r\n`]*)$", RegexOptions.Multiline)]
    private static partial Regex TestCommand();

    [GeneratedRegex(@"<PackageVersion Include=""(?<id>[^""]+)""")]
    private static partial Regex PackageVersion();

    [GeneratedRegex(@"<PackageReference Include=""(?<id>[^""]+)""")]
    private static partial Regex PackageReference();
}
