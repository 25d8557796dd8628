using System.Globalization;
using System.Runtime.InteropServices;
using System.Text.Json;
using PooledHttp.Workshop.Building;
using PooledHttp.Workshop.Notebooks;

namespace PooledHttp.Workshop.Fetching;

/// <summary>
/// The workshop's own dotnet root, under <c>artifacts/dotnet</c>: the installed host, SDK and runtimes,
/// plus the .NET runtimes the workshop fetched for itself from NuGet. BenchmarkDotNet builds and runs
/// each runtime's benchmarks through its <see cref="DotnetPath"/>.
/// </summary>
/// <remarks>
/// <para><b>How a runtime gets here.</b> The SDK knows the latest patch of every runtime it can target.
/// Restoring a tiny self-contained project for <c>net8.0</c> makes NuGet download exactly that runtime pack
/// (<c>Microsoft.NETCore.App.Runtime.&lt;rid&gt;</c>) into the NuGet cache, from the configured package source
/// and nowhere else. The pack's assemblies and native files, copied into
/// <c>shared/Microsoft.NETCore.App/&lt;version&gt;/</c>, are a shared framework like an installed one.</para>
/// <para><b>Why a root of its own.</b> The dotnet host looks for frameworks beside itself, so a runtime
/// can only be added next to a copy of the host. Everything else (SDK, packs, the installed frameworks)
/// is linked, not copied, so the root costs the size of the fetched runtimes (about 70 MiB each).</para>
/// <para><b>Cost.</b> The first call restores and copies (seconds per runtime, plus the download); later
/// calls only check that the links are in place.</para>
/// </remarks>
public sealed class PrivateDotnet
{
    private const string NetCoreApp = "Microsoft.NETCore.App";

    private static readonly object Gate = new();
    private static PrivateDotnet? _current;

    private PrivateDotnet(string root, IReadOnlyDictionary<int, string> versions, IReadOnlyList<string> problems)
    {
        Root = root;
        Versions = versions;
        Problems = problems;
    }

    /// <summary>The root folder.</summary>
    public string Root { get; }

    /// <summary>The root's <c>dotnet</c> executable: run through it, an app finds the root's runtimes.</summary>
    public string DotnetPath => Path.Combine(Root, OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet");

    /// <summary>The newest <c>Microsoft.NETCore.App</c> of each major version the root holds, e.g. 8 → "8.0.31".</summary>
    public IReadOnlyDictionary<int, string> Versions { get; }

    /// <summary>Runtimes asked for and not had, each with the reason.</summary>
    public IReadOnlyList<string> Problems { get; }

    /// <summary>The runtime identifier of the packs this machine needs, e.g. "linux-x64", "osx-arm64", "win-x64".</summary>
    public static string RuntimeIdentifier
    {
        get
        {
            string os = OperatingSystem.IsWindows() ? "win"
                : OperatingSystem.IsMacOS() ? "osx"
                : RuntimeInformation.RuntimeIdentifier.Contains("musl", StringComparison.Ordinal) ? "linux-musl"
                : "linux";
            return $"{os}-{RuntimeInformation.OSArchitecture.ToString().ToLowerInvariant()}";
        }
    }

    /// <summary>
    /// The workshop's root with the given major versions of .NET in it, fetching any that neither it nor
    /// the machine has. A runtime that cannot be had is left out, with the reason in <see cref="Problems"/>.
    /// </summary>
    /// <param name="majors">Major versions wanted, e.g. 8 and 9. The running runtime is always there.</param>
    /// <param name="log">Where to say what is happening; nothing is said when <see langword="null"/>.</param>
    public static PrivateDotnet Ensure(IEnumerable<int> majors, Action<string>? log = null)
    {
        ArgumentNullException.ThrowIfNull(majors);
        lock (Gate)
        {
            int[] wanted = [.. majors.Distinct().Order()];
            if (_current is { } known && wanted.All(m => known.Versions.ContainsKey(m)))
            {
                return known;
            }

            _current = Build(Path.Combine(WorkshopPaths.Root, "artifacts", "dotnet"), InstalledRoot(), wanted, log ?? (_ => { }));
            return _current;
        }
    }

    /// <summary>The dotnet root the running runtime came from: three folders above <c>System.Private.CoreLib</c>.</summary>
    internal static string InstalledRoot()
    {
        string runtimeDirectory = RuntimeEnvironment.GetRuntimeDirectory(); // <root>/shared/Microsoft.NETCore.App/<version>/
        string root = Path.GetFullPath(Path.Combine(runtimeDirectory, "..", "..", ".."));
        if (!Directory.Exists(Path.Combine(root, "sdk")))
        {
            throw new InvalidOperationException($"No .NET SDK beside the running runtime ({runtimeDirectory}): the workshop needs the SDK to build benchmarks for other runtimes.");
        }

        return root;
    }

    /// <summary>Builds (or refreshes) a root at <paramref name="root"/> over <paramref name="installed"/>.</summary>
    internal static PrivateDotnet Build(string root, string installed, IReadOnlyList<int> wanted, Action<string> log)
    {
        var problems = new List<string>();
        try
        {
            // Another process (a second notebook, the pre-flight check) may be linking or fetching into the same
            // folder: two fetches of .NET 9 at once deleted each other's copy. One process at a time, and whoever
            // waited finds the runtime there and fetches nothing.
            using LockFile held = FetchLock.Take($"fetching .NET {string.Join(" and ", wanted)} into {root}", FetchLock.Timeout, log);
            Directory.CreateDirectory(Path.Combine(root, "shared"));
            LinkInstalled(root, installed);
            foreach (int major in wanted)
            {
                if (NewestVersion(root, major) is not null)
                {
                    continue;
                }

                try
                {
                    log($"Fetching .NET {major} from NuGet for {RuntimeIdentifier} (once; it is kept in artifacts/dotnet)...");
                    string version = Provision(root, installed, major);
                    log($"Fetched .NET {version}.");
                }
                catch (RuntimeUnavailableException e)
                {
                    problems.Add(e.Message);
                    log(e.Message);
                }
            }
        }
        catch (TimeoutException e)
        {
            problems.Add(e.Message);
            log(e.Message);
        }

        var versions = new Dictionary<int, string>();
        string runtimes = Path.Combine(root, "shared", NetCoreApp);
        foreach (string directory in Directory.Exists(runtimes) ? Directory.EnumerateDirectories(runtimes) : [])
        {
            if (Version.TryParse(Path.GetFileName(directory), out Version? v) && (!versions.TryGetValue(v.Major, out string? have) || Version.Parse(have) < v))
            {
                versions[v.Major] = v.ToString();
            }
        }

        return new PrivateDotnet(root, versions, problems);
    }

    /// <summary>
    /// Copies the host, and links everything else the installed root has: SDK, packs, manifests and each
    /// installed framework version. Cheap to repeat, and repeated on every build so that a changed
    /// installation (a new SDK) shows up.
    /// </summary>
    private static void LinkInstalled(string root, string installed)
    {
        foreach (string entry in Directory.EnumerateFileSystemEntries(installed))
        {
            string name = Path.GetFileName(entry);
            string target = Path.Combine(root, name);
            if (name == "shared")
            {
                continue;
            }

            if (File.Exists(entry))
            {
                // The host finds frameworks beside its own real path, so it is copied; a link would lead it home.
                if (!File.Exists(target) || new FileInfo(target).Length != new FileInfo(entry).Length || File.GetLastWriteTimeUtc(target) < File.GetLastWriteTimeUtc(entry))
                {
                    File.Copy(entry, target, overwrite: true);
                }

                continue;
            }

            Link(target, entry);
        }

        foreach (string framework in Directory.EnumerateDirectories(Path.Combine(installed, "shared")))
        {
            string frameworkTarget = Path.Combine(root, "shared", Path.GetFileName(framework));
            Directory.CreateDirectory(frameworkTarget);
            foreach (string version in Directory.EnumerateDirectories(framework))
            {
                Link(Path.Combine(frameworkTarget, Path.GetFileName(version)), version);
            }
        }
    }

    /// <summary>Makes <paramref name="path"/> a link to the folder <paramref name="target"/>, replacing a stale one.</summary>
    private static void Link(string path, string target)
    {
        var existing = new DirectoryInfo(path);
        if (existing.Exists || existing.LinkTarget is not null)
        {
            if (existing.LinkTarget == target)
            {
                return;
            }

            if (existing.LinkTarget is null)
            {
                return; // a real folder: a runtime this workshop fetched, or a user's own; leave it
            }

            existing.Delete();
        }

        try
        {
            Directory.CreateSymbolicLink(path, target);
        }
        catch (Exception e) when (OperatingSystem.IsWindows() && e is IOException or UnauthorizedAccessException)
        {
            // Windows allows symbolic links only in developer mode or as an administrator; a junction needs neither.
            if (ChildProcess.RunAsync("cmd.exe", ["/c", "mklink", "/J", path, target], Timeout.InfiniteTimeSpan).GetAwaiter().GetResult().ExitCode != 0)
            {
                throw new IOException($"Could not link {path} to {target}: {e.Message}", e);
            }
        }
    }

    /// <summary>The newest <c>Microsoft.NETCore.App</c> of <paramref name="major"/> in <paramref name="root"/>, if any.</summary>
    private static string? NewestVersion(string root, int major)
    {
        string frameworks = Path.Combine(root, "shared", NetCoreApp);
        return !Directory.Exists(frameworks)
            ? null
            : Directory.EnumerateDirectories(frameworks)
                .Select(Path.GetFileName)
                .Select(name => Version.TryParse(name, out Version? v) ? v : null)
                .Where(v => v is not null && v.Major == major)
                .Max()?.ToString();
    }

    /// <summary>Restores the runtime pack of <paramref name="major"/> through NuGet and copies it into the root.</summary>
    private static string Provision(string root, string installed, int major)
    {
        string rid = RuntimeIdentifier;
        string tfm = string.Create(CultureInfo.InvariantCulture, $"net{major}.0");
        string project = Path.Combine(root, "..", "dotnet-packs", tfm);
        Directory.CreateDirectory(project);
        // Empty build files stop the repository's own (central package versions, analyzers) from applying.
        foreach (string empty in new[] { "Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props" })
        {
            File.WriteAllText(Path.Combine(project, empty), "<Project />\n");
        }

        File.WriteAllText(Path.Combine(project, "fetch-runtime.csproj"), $"""
            <!-- Written by the workshop (PrivateDotnet) to make NuGet fetch the .NET {major} runtime pack. Never built. -->
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup>
                <TargetFramework>{tfm}</TargetFramework>
                <RuntimeIdentifier>{rid}</RuntimeIdentifier>
                <SelfContained>true</SelfContained>
              </PropertyGroup>
            </Project>
            """);

        string dotnet = Path.Combine(installed, OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet");
        (int exit, string output, string error, _) = ChildProcess.RunAsync(dotnet, ["restore", Path.Combine(project, "fetch-runtime.csproj")], Timeout.InfiniteTimeSpan).GetAwaiter().GetResult();
        if (exit != 0)
        {
            string said = string.Join(Environment.NewLine, (output + error).Split('\n').Select(l => l.Trim()).Where(l => l.Contains("error", StringComparison.OrdinalIgnoreCase)).Take(3));
            throw new RuntimeUnavailableException($".NET {major} is not available: NuGet could not restore the runtime pack Microsoft.NETCore.App.Runtime.{rid} for {tfm}. {said}".TrimEnd());
        }

        (string version, string pack) = RestoredPack(Path.Combine(project, "obj", "project.assets.json"), rid, tfm);
        string target = Path.Combine(root, "shared", NetCoreApp, version);
        string staging = target + ".partial";
        if (Directory.Exists(staging))
        {
            Directory.Delete(staging, recursive: true);
        }

        Directory.CreateDirectory(staging);
        foreach (string source in new[] { Path.Combine(pack, "runtimes", rid, "lib", tfm), Path.Combine(pack, "runtimes", rid, "native") })
        {
            if (!Directory.Exists(source))
            {
                throw new RuntimeUnavailableException($".NET {major} is not available: the runtime pack at {pack} has no {Path.GetRelativePath(pack, source)} folder.");
            }

            foreach (string file in Directory.EnumerateFiles(source))
            {
                File.Copy(file, Path.Combine(staging, Path.GetFileName(file)), overwrite: true);
            }
        }

        // Renamed into place only when complete: an interrupted copy never passes for a runtime.
        Directory.Move(staging, target);
        return version;
    }

    /// <summary>Which version of the runtime pack the restore fetched, and the folder it is in.</summary>
    private static (string Version, string Folder) RestoredPack(string assetsPath, string rid, string tfm)
    {
        using JsonDocument assets = JsonDocument.Parse(File.ReadAllText(assetsPath));
        string packId = $"Microsoft.NETCore.App.Runtime.{rid}";
        JsonElement downloads = assets.RootElement.GetProperty("project").GetProperty("frameworks").GetProperty(tfm).GetProperty("downloadDependencies");
        string? range = downloads.EnumerateArray()
            .Where(d => string.Equals(d.GetProperty("name").GetString(), packId, StringComparison.OrdinalIgnoreCase))
            .Select(d => d.GetProperty("version").GetString())
            .FirstOrDefault()
            ?? throw new RuntimeUnavailableException($"The restore for {tfm} did not download {packId}.");
        string version = range.Trim('[', ']', ' ').Split(',')[0].Trim(); // "[8.0.31, 8.0.31]"
        foreach (JsonProperty folder in assets.RootElement.GetProperty("packageFolders").EnumerateObject())
        {
            string candidate = Path.Combine(folder.Name, packId.ToLowerInvariant(), version);
            if (Directory.Exists(candidate))
            {
                return (version, candidate);
            }
        }

        throw new RuntimeUnavailableException($"{packId} {version} was restored but is in none of NuGet's package folders.");
    }
}
