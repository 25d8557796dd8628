using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;

namespace PooledHttp.Workshop.Notebooks;

/// <summary>
/// What the kit knows about a build of a small project that references it (the exercises, the load
/// probe): whether the last build can be used again, and which build an assembly is.
/// </summary>
internal static class BuildOutput
{
    /// <summary>
    /// Whether <paramref name="assembly"/>, the output of the project in <paramref name="projectFolder"/>,
    /// is newer than every source file of that project, and was built against the kit, its benchmarks and the library
    /// this process loaded (their copies beside it have the same module ids: builds are deterministic).
    /// Any edit makes a file newer or a module id differ, and the caller builds.
    /// </summary>
    public static bool IsCurrent(string projectFolder, string assembly)
    {
        string folder = Path.GetDirectoryName(assembly)!;
        bool SameAsLoaded(System.Reflection.Assembly loaded)
        {
            string copy = Path.Combine(folder, Path.GetFileName(loaded.Location));
            return File.Exists(copy) && ModuleId(copy) == loaded.ManifestModule.ModuleVersionId;
        }

        if (!File.Exists(assembly) || !SameAsLoaded(typeof(BuildOutput).Assembly) || !SameAsLoaded(typeof(Server.Payload).Assembly) || !SameAsLoaded(typeof(PooledHttp.Buffers.PooledBuffer).Assembly))
        {
            return false;
        }

        DateTime built = File.GetLastWriteTimeUtc(assembly);
        string[] generated = [Path.Combine(projectFolder, "bin") + Path.DirectorySeparatorChar, Path.Combine(projectFolder, "obj") + Path.DirectorySeparatorChar];
        return Directory.EnumerateFiles(projectFolder, "*", SearchOption.AllDirectories)
            .Where(file => !generated.Any(file.StartsWith) && Path.GetExtension(file) is ".cs" or ".csproj" or ".props" or ".targets")
            .All(file => File.GetLastWriteTimeUtc(file) < built);
    }

    /// <summary>The module version id of the assembly at <paramref name="path"/>, read without loading it.</summary>
    public static Guid ModuleId(string path)
    {
        using var pe = new PEReader(File.OpenRead(path));
        MetadataReader metadata = pe.GetMetadataReader();
        return metadata.GetGuid(metadata.GetModuleDefinition().Mvid);
    }
}
