using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using PooledHttp.Workshop.Notebooks;

namespace PooledHttp.Workshop.Building;

/// <summary>
/// The workshop's one rule for "can the last build be used again?", for the builds the notebooks start
/// (the exercises, the load probe; <see cref="BuildAsync"/> runs them under the <see cref="BuildLock"/>): a build is current when the record of its inputs, written when it
/// succeeded, still matches. The record is one line per input file (every file under the input folders,
/// outside <c>bin/</c> and <c>obj/</c>, and the repository's build settings) with its size and last write
/// time, so any edit, added or deleted file means a build.
/// </summary>
/// <remarks>
/// <c>notebooks/workshop.csx</c> applies the same rule to the kit itself; it runs before the kit exists, so it
/// carries its own copy of <see cref="Inputs"/>, and a test holds the two to the same record. A build that
/// would change nothing costs MSBuild several seconds, which is all this saves; BenchmarkDotNet's own builds
/// are left to MSBuild's incremental build (<c>IncrementalBuilder</c>).
/// </remarks>
internal static class BuildOutput
{
    /// <summary>The record's name, beside the build's output.</summary>
    public const string RecordFile = "build-inputs.txt";

    /// <summary>The build settings every project of the repository reads, relative to its root.</summary>
    private static readonly string[] Settings = ["Directory.Build.props", "Directory.Packages.props", "global.json", "NuGet.config"];

    /// <summary>
    /// The inputs of a build that compiles <paramref name="folders"/> (relative to <paramref name="root"/>):
    /// one line per file, its path relative to the root, its size and its last write time, in ordinal order.
    /// </summary>
    public static string Inputs(string root, IEnumerable<string> folders)
    {
        char separator = Path.DirectorySeparatorChar;
        IEnumerable<string> sources = folders
            .SelectMany(folder => Directory.EnumerateFiles(Path.Combine(root, folder), "*", SearchOption.AllDirectories))
            .Where(path => !path.Contains($"{separator}bin{separator}", StringComparison.Ordinal) && !path.Contains($"{separator}obj{separator}", StringComparison.Ordinal));
        IEnumerable<string> settings = Settings.Select(file => Path.Combine(root, file)).Where(File.Exists);
        return string.Join("\n", sources.Concat(settings)
            .Select(path => (Relative: Path.GetRelativePath(root, path).Replace(separator, '/'), File: new FileInfo(path)))
            .OrderBy(input => input.Relative, StringComparer.Ordinal)
            .Select(input => $"{input.Relative}|{input.File.Length}|{input.File.LastWriteTimeUtc.Ticks}"));
    }

    /// <summary>
    /// The folders a build of <paramref name="projectFolder"/> reads: the project's own, the workshop's assemblies with
    /// the library (all of <c>helpers/</c>), and the command-line source the load probe links with the tools (<c>tools/Common</c>).
    /// </summary>
    public static string[] FoldersFor(string projectFolder)
        => [Path.GetRelativePath(WorkshopPaths.Root, projectFolder), "helpers", Path.Combine("tools", "Common")];

    /// <summary>Whether <paramref name="assembly"/> exists and was built from exactly <paramref name="inputs"/>.</summary>
    public static bool IsCurrent(string assembly, string inputs)
    {
        string record = Path.Combine(Path.GetDirectoryName(assembly)!, RecordFile);
        return File.Exists(assembly) && File.Exists(record) && File.ReadAllText(record) == inputs;
    }

    /// <summary>Records that the build beside <paramref name="assembly"/> succeeded from <paramref name="inputs"/>, read before it started (so an edit made during the build is seen next time).</summary>
    public static void Remember(string assembly, string inputs)
        => File.WriteAllText(Path.Combine(Path.GetDirectoryName(assembly)!, RecordFile), inputs);

    /// <summary>
    /// Builds <paramref name="project"/> in Release into <paramref name="output"/> under the <see cref="BuildLock"/>,
    /// unless the build there is current: the exercises and the load probe are built this way.
    /// </summary>
    /// <param name="what">The build, in words, for whoever waits for the lock.</param>
    /// <param name="project">The project file.</param>
    /// <param name="output">The folder the build writes; the assembly is named after the project.</param>
    /// <returns>The assembly's path, and null; or null and the build's output when it failed.</returns>
    /// <exception cref="TimeoutException">Another build held the lock, or this build ran, for longer than <see cref="BuildLock.Timeout"/>.</exception>
    public static async Task<(string? Assembly, string? Failure)> BuildAsync(string what, string project, string output)
    {
        string assembly = Path.Combine(output, Path.GetFileNameWithoutExtension(project) + ".dll");
        string inputs = Inputs(WorkshopPaths.Root, FoldersFor(Path.GetDirectoryName(project)!));
        if (IsCurrent(assembly, inputs))
        {
            return (assembly, null);
        }

        using LockFile held = BuildLock.Take(what, BuildLock.Timeout, Console.WriteLine);
        if (IsCurrent(assembly, inputs))
        {
            return (assembly, null); // built by whoever held the lock
        }

        ChildResult built = await ChildProcess.RunAsync("dotnet", ["build", project, "-c", "Release", "-o", output, "--nologo", "-v", "q", "-clp:NoSummary"], BuildLock.Timeout).ConfigureAwait(false);
        if (built.ExitCode != 0)
        {
            return (null, built.Output + built.Error);
        }

        Remember(assembly, inputs);
        return (assembly, null);
    }

    /// <summary>The module version id of the assembly at <paramref name="path"/>, read without loading it.</summary>
    public static Guid ModuleId(string path)
    {
        using var pe = new PEReader(File.OpenRead(path));
        MetadataReader metadata = pe.GetMetadataReader();
        return metadata.GetGuid(metadata.GetModuleDefinition().Mvid);
    }
}
