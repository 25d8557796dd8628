using Microsoft.CodeAnalysis.CSharp.Scripting;
using Microsoft.CodeAnalysis.Scripting;
using PooledHttp.Workshop.Building;
using PooledHttp.Workshop.Fetching;

namespace PooledHttp.Tests.Building;

/// <summary>The one rule for reusing a build (<see cref="BuildOutput"/>), workshop.csx's copy of it, and the locks.</summary>
[Collection(PooledHttp.Tests.Support.SerialTests.Name)] // holds the machine-wide locks with short timeouts, which a notebook's build or fetch would outlast
public sealed class BuildOutputTests : IDisposable
{
    private readonly string _root = Directory.CreateTempSubdirectory("pooledhttp-build-").FullName;

    [Fact]
    public void A_build_is_current_until_an_input_is_edited_added_or_deleted_and_bin_and_obj_are_not_inputs()
    {
        Write("project/Program.cs", "class P {}");
        Write("helpers/Kit.cs", "class K {}");
        Write("Directory.Build.props", "<Project />");
        string assembly = Write("out/Program.dll", "built");
        string[] folders = ["project", "helpers"];

        Assert.False(BuildOutput.IsCurrent(assembly, BuildOutput.Inputs(_root, folders))); // never built: no record
        BuildOutput.Remember(assembly, BuildOutput.Inputs(_root, folders));
        Assert.True(BuildOutput.IsCurrent(assembly, BuildOutput.Inputs(_root, folders)));

        Write("project/obj/Release/Program.dll", "intermediate");
        Write("helpers/bin/Release/Kit.dll", "output");
        Assert.True(BuildOutput.IsCurrent(assembly, BuildOutput.Inputs(_root, folders)));

        foreach (Action change in new Action[]
        {
            () => File.SetLastWriteTimeUtc(Path.Combine(_root, "helpers/Kit.cs"), DateTime.UtcNow.AddMinutes(1)), // saved again
            () => Write("project/Extra.cs", "class E {}"),                                                          // added
            () => File.Delete(Path.Combine(_root, "project/Extra.cs")),                                             // deleted
            () => Write("Directory.Build.props", "<Project><PropertyGroup /></Project>"),                           // a build setting
        })
        {
            change();
            Assert.False(BuildOutput.IsCurrent(assembly, BuildOutput.Inputs(_root, folders)));
            BuildOutput.Remember(assembly, BuildOutput.Inputs(_root, folders));
        }

        File.Delete(assembly);
        Assert.False(BuildOutput.IsCurrent(assembly, BuildOutput.Inputs(_root, folders))); // a record without its build
    }

    [Fact]
    public async Task Workshop_csx_keeps_the_same_record_of_the_kit_as_the_kit_keeps_of_its_own_builds()
    {
        // notebooks/workshop.csx runs before the kit exists, so it carries a copy of BuildOutput.Inputs. Run its
        // function over this repository and compare: a copy that drifted would rebuild the kit for nothing, or
        // (worse) miss an edit and load a stale kit.
        string root = RepositoryRoot.Find();
        (string script, ScriptOptions options) = WorkshopScript(root);
        string fromScript = await CSharpScript.EvaluateAsync<string>($"{script}\nWorkshopBuildInputs(@\"{root}\")", options);

        Assert.Equal(BuildOutput.Inputs(root, ["helpers"]), fromScript);
        Assert.Contains("helpers/PooledHttp/PooledHttp.csproj|", fromScript, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("helpers/PooledHttp.Workshop.LoadProbe/PooledHttp.Workshop.LoadProbe.csproj")]
    [InlineData("exercises/PooledHttp.Exercises.csproj")]
    public void The_record_of_a_build_the_kit_starts_covers_every_source_its_project_links(string project)
    {
        // A source linked from outside the record's folders could change without a rebuild: the notebook would
        // then run a stale probe or exercise build.
        string root = RepositoryRoot.Find();
        string projectPath = Path.Combine(root, project);
        string folder = Path.GetDirectoryName(projectPath)!;
        string[] recorded = [.. BuildOutput.FoldersFor(folder).Select(f => Path.GetFullPath(Path.Combine(root, f)) + Path.DirectorySeparatorChar)];
        var linked = System.Xml.Linq.XDocument.Load(projectPath).Descendants("Compile")
            .Select(c => (string?)c.Attribute("Include")).OfType<string>()
            .Select(include => Path.GetFullPath(Path.Combine(folder, Path.GetDirectoryName(include.Replace('\\', '/'))!)) + Path.DirectorySeparatorChar)
            .ToList();
        Assert.All(linked, path => Assert.True(recorded.Any(r => path.StartsWith(r, StringComparison.Ordinal)), $"{project} links sources from {path}, which its build record does not cover"));
    }

    [Fact]
    public async Task Workshop_csx_takes_the_same_lock_as_the_kit_builds()
    {
        // notebooks/workshop.csx carries a copy of BuildLock too. Take the lock with the script's function and the
        // kit's must wait for it, naming the script's build. A copy that named another
        // file, or did not hold it exclusively, would let the notebook's build and a test's build share obj folders.
        string root = RepositoryRoot.Find();
        (string script, ScriptOptions options) = WorkshopScript(root);

        (string path, double minutes) = await CSharpScript.EvaluateAsync<(string, double)>($"{script}\n(WorkshopBuildLockPath, WorkshopBuildTimeout.TotalMinutes)", options);
        Assert.Equal(BuildLock.LockPath, path);
        Assert.Equal(BuildLock.Timeout.TotalMinutes, minutes);

        using (FileStream _ = await CSharpScript.EvaluateAsync<FileStream>($"{script}\nTakeWorkshopBuildLock(\"the notebook's kit (test)\")", options))
        {
            TimeoutException waited = Assert.Throws<TimeoutException>(() => BuildLock.Take("a kit build (test)", TimeSpan.FromMilliseconds(300)));
            Assert.Contains("the notebook's kit (test)", waited.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Fetching_a_runtime_takes_a_lock_of_its_own_that_a_second_fetch_waits_for_and_a_build_does_not()
    {
        // Two notebooks fetching .NET 9 into artifacts/dotnet at once deleted each other's copy; a fetch that took the
        // build lock would have made the pre-flight check's chapter wait for its download.
        using LockFile fetching = FetchLock.Take("fetching .NET 9 (test)", TimeSpan.FromSeconds(30));
        TimeoutException waited = Assert.Throws<TimeoutException>(() => FetchLock.Take("a second fetch (test)", TimeSpan.FromMilliseconds(300)));
        Assert.Contains("fetching .NET 9 (test)", waited.Message, StringComparison.Ordinal);

        Assert.Contains("another fetch held", waited.Message, StringComparison.Ordinal);

        using LockFile building = BuildLock.Take("a build beside the fetch (test)", BuildLock.Timeout);
    }

    public void Dispose() => Directory.Delete(_root, recursive: true);

    /// <summary>workshop.csx's functions without the lines that build and load: what the tests call.</summary>
    private static (string Script, ScriptOptions Options) WorkshopScript(string root)
    {
        string script = string.Join('\n', File.ReadAllLines(Path.Combine(root, "notebooks", "workshop.csx"))
            .Where(line => !line.StartsWith("#load", StringComparison.Ordinal)
                && !line.StartsWith("BuildWorkshopHelpers();", StringComparison.Ordinal)
                && !line.StartsWith("LoadChartLibrariesTogether(", StringComparison.Ordinal)));
        ScriptOptions options = ScriptOptions.Default.WithReferences(typeof(Enumerable).Assembly, typeof(FileInfo).Assembly, typeof(Console).Assembly, typeof(System.Diagnostics.Process).Assembly).WithImports("System", "System.Linq", "System.Collections.Generic", "System.Threading.Tasks");
        return (script, options);
    }

    private string Write(string relative, string text)
    {
        string path = Path.Combine(_root, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, text);
        return path;
    }
}
