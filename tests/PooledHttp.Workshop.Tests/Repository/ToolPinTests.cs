using System.Text.RegularExpressions;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Repository;

/// <summary>
/// One version of the .NET Interactive tool, written once (<see cref="InteractiveTool.PinFile"/>): every script that
/// installs it reads that file, and every version the README, the docs and the scripts name is that one. That the
/// version installs is <see cref="DevContainerTests"/>' to show.
/// </summary>
public partial class ToolPinTests
{
    private static readonly string Root = RepositoryTests.FindRoot();

    /// <summary>
    /// Other versions a page may name, and why: 1.0.707101 is the release the VS Code restart bug was reported against
    /// (docs/troubleshooting.md), and no longer served (docs/dependencies.md says so beside the pin).
    /// </summary>
    private static readonly Dictionary<string, string[]> Historical = new(StringComparer.Ordinal)
    {
        ["1.0.707101"] = ["docs/troubleshooting.md", "docs/dependencies.md"],
    };

    /// <summary>Where the tool is installed or named: the container's scripts, CI, the README and the docs (not the rendered chapters).</summary>
    internal static IEnumerable<string> Files()
        => new[] { ".ci/run", "README.md" }
            .Concat(Directory.EnumerateFiles(Path.Combine(Root, ".devcontainer")).Select(f => Path.GetRelativePath(Root, f)))
            .Concat(Directory.EnumerateFiles(Path.Combine(Root, "docs"), "*.md").Select(f => Path.GetRelativePath(Root, f)))
            .Select(f => f.Replace(Path.DirectorySeparatorChar, '/'))
            .Order(StringComparer.Ordinal);

    [Fact]
    public void The_pin_is_one_exact_version()
    {
        // Exact: no floating (*), no range, no prerelease that moves.
        Assert.Matches(@"^\d+\.\d+\.\d+$", InteractiveTool.PinnedVersion);
        Assert.Single(File.ReadAllLines(Path.Combine(Root, InteractiveTool.PinFile)), line => line.Trim().Length > 0);
        // A local tool manifest would make the `dotnet interactive` Jupyter starts in notebooks/ ask for `dotnet tool restore`.
        Assert.False(File.Exists(Path.Combine(Root, ".config", "dotnet-tools.json")), "a local tool manifest stops Jupyter's kernel from starting in the repository (see InteractiveTool)");
        Assert.False(File.Exists(Path.Combine(Root, "dotnet-tools.json")), "a local tool manifest stops Jupyter's kernel from starting in the repository (see InteractiveTool)");
    }

    [Fact]
    public void Every_install_of_the_tool_installs_the_pin()
    {
        var installs = new List<string>();
        foreach (string file in Files())
        {
            string text = File.ReadAllText(Path.Combine(Root, file));
            foreach ((string install, string? version) in Installs(text))
            {
                installs.Add(file);
                Assert.True(version == InteractiveTool.PinnedVersion, $"{file}: `{install}` installs {version ?? "no pinned version"}, not the pin {InteractiveTool.PinnedVersion} ({InteractiveTool.PinFile})");
            }
        }

        // The container, CI and the README's Jupyter route all install it.
        Assert.Contains(".devcontainer/on-create.sh", installs);
        Assert.Contains(".ci/run", installs);
        Assert.Contains("README.md", installs);
    }

    [Fact]
    public void Every_version_of_the_tool_the_repository_names_is_the_pin()
    {
        var wrong = new List<string>();
        foreach (string file in Files())
        {
            foreach (Match version in ToolVersion().Matches(File.ReadAllText(Path.Combine(Root, file))))
            {
                if (version.Value != InteractiveTool.PinnedVersion && !(Historical.TryGetValue(version.Value, out string[]? pages) && pages.Contains(file)))
                {
                    wrong.Add($"{file}: {version.Value}");
                }
            }
        }

        Assert.True(wrong.Count == 0, $"versions of the tool other than the pin {InteractiveTool.PinnedVersion}: {string.Join(", ", wrong)}");
    }

    /// <summary>
    /// Each <c>dotnet tool install</c> (or update) of the tool in <paramref name="text"/>, with the version it installs:
    /// its <c>--version</c> when written out, or the pin file's when it is a shell variable read from that file
    /// (<c>name=$(… .config/dotnet-interactive.version)</c>); null when it names none.
    /// </summary>
    internal static IEnumerable<(string Install, string? Version)> Installs(string text)
    {
        foreach (Match install in ToolInstall().Matches(text))
        {
            Match version = VersionArgument().Match(install.Value);
            if (!version.Success)
            {
                yield return (install.Value.Trim(), null);
                continue;
            }

            string value = version.Groups["v"].Value.Trim('"', '\'', '`');
            if (value.StartsWith('$'))
            {
                string name = value.TrimStart('$').Trim('{', '}');
                bool readsThePin = Regex.IsMatch(text, $@"(?m)^\s*{Regex.Escape(name)}=\$\([^)]*{Regex.Escape(InteractiveTool.PinFile)}\s*\)\s*$");
                yield return (install.Value.Trim(), readsThePin ? InteractiveTool.PinnedVersion : $"${name}, which is not read from {InteractiveTool.PinFile}");
            }
            else
            {
                yield return (install.Value.Trim(), value);
            }
        }
    }

    [GeneratedRegex(@"dotnet tool (install|update)[^\n]*Microsoft\.dotnet-interactive[^\n]*", RegexOptions.IgnoreCase)]
    private static partial Regex ToolInstall();

    [GeneratedRegex(@"--version\s+(?<v>""[^""]*""|'[^']*'|[^\s`]+)")]
    private static partial Regex VersionArgument();

    // The tool's versions are 1.0.<build>: six digits since 2021.
    [GeneratedRegex(@"(?<![\d.])1\.0\.\d{6}(?!\d|\.\d)")]
    private static partial Regex ToolVersion();
}
