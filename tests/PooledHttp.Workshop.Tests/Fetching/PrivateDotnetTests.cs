using PooledHttp.Workshop.Fetching;

namespace PooledHttp.Tests.Fetching;

/// <summary>
/// The workshop's own dotnet root, built in a temporary folder: a runtime fetched from NuGet is one the
/// dotnet host lists and runs, the second build fetches nothing, and a runtime that cannot be had is
/// reported, not thrown.
/// </summary>
/// <remarks>
/// Runs beside the other tests: it builds nothing of the repository, its root and restore folder are its own, and
/// NuGet's package folder takes concurrent restores. Fetching is mostly waiting for the network.
/// </remarks>
public sealed class PrivateDotnetTests : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "pooledhttp-dotnet-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public async Task A_runtime_fetched_from_NuGet_is_listed_by_the_roots_own_host()
    {
        var said = new List<string>();
        PrivateDotnet dotnet = PrivateDotnet.Build(_root, PrivateDotnet.InstalledRoot(), [8], said.Add);

        Assert.StartsWith("8.0.", dotnet.Versions[8], StringComparison.Ordinal);
        Assert.Equal(Environment.Version.ToString(), dotnet.Versions[Environment.Version.Major]); // the installed one, linked
        Assert.Empty(dotnet.Problems);
        Assert.Contains(said, line => line.StartsWith("Fetching .NET 8 from NuGet", StringComparison.Ordinal));

        (int exit, string output, string error) = await ChildProcess.RunAsync(dotnet.DotnetPath, ["--list-runtimes"], TimeSpan.FromMinutes(1));
        Assert.True(exit == 0, error);
        Assert.Contains($"Microsoft.NETCore.App {dotnet.Versions[8]} [{Path.Combine(_root, "shared", "Microsoft.NETCore.App")}]", output, StringComparison.Ordinal);

        var again = new List<string>();
        PrivateDotnet second = PrivateDotnet.Build(_root, PrivateDotnet.InstalledRoot(), [8], again.Add);
        Assert.Empty(again); // already there: nothing fetched, nothing said
        Assert.Equal(dotnet.Versions[8], second.Versions[8]);
    }

    [Fact]
    public void A_runtime_that_cannot_be_had_is_a_problem_with_a_reason_and_the_rest_still_works()
    {
        PrivateDotnet dotnet = PrivateDotnet.Build(_root, PrivateDotnet.InstalledRoot(), [42], _ => { });

        string problem = Assert.Single(dotnet.Problems);
        Assert.StartsWith(".NET 42 is not available: NuGet could not restore the runtime pack Microsoft.NETCore.App.Runtime.", problem, StringComparison.Ordinal);
        Assert.False(dotnet.Versions.ContainsKey(42));
        Assert.True(dotnet.Versions.ContainsKey(Environment.Version.Major));
        Assert.DoesNotContain(Directory.EnumerateDirectories(Path.Combine(_root, "shared", "Microsoft.NETCore.App")), d => d.EndsWith(".partial", StringComparison.Ordinal));
    }

    [Fact]
    public void The_runtime_identifier_is_the_portable_one_for_this_machine()
    {
        Assert.Matches("^(linux|linux-musl|osx|win)-(x64|arm64|x86|arm)$", PrivateDotnet.RuntimeIdentifier);
    }

    public void Dispose()
    {
        if (Directory.Exists(_root))
        {
            // Links are deleted as links: the installed SDK they point to stays untouched.
            Directory.Delete(_root, recursive: true);
        }
    }
}
