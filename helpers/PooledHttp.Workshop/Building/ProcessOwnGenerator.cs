using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains.CsProj;
using BenchmarkDotNet.Toolchains.DotNetCli;

namespace PooledHttp.Workshop.Building;

/// <summary>
/// BenchmarkDotNet's project generator with one change: the generated project's folder carries this process's id,
/// so two processes that measure from the same build folder at once never share it.
/// </summary>
/// <remarks>
/// BenchmarkDotNet names the folder after the benchmarks' assembly, the job and a counter that starts at 1 in every
/// process (<c>BuildPartition.GetProgramName</c>), beside the assembly: two notebooks measuring at the same time from
/// <c>artifacts/notebook-bin</c> both generate <c>PooledHttp.Workshop.Benchmarks-quick-1</c> (shortened on Windows), and
/// the first to finish deletes the other's program (a <c>DirectoryNotFoundException</c> or "project file does not
/// exist"). Everything else, the generated program and project and their cleanup included, is
/// <see cref="CsProjGenerator"/>'s own. A process killed mid-run leaves its folder behind, as before, under a name no
/// later process reuses unless it gets the same id; deleting <c>artifacts/</c> clears them.
/// </remarks>
// The settings' null paths and version mean "the defaults", as CsProjCoreToolchain.From passes them; the parameters are
// not annotated for it.
internal sealed class ProcessOwnGenerator(NetCoreAppSettings settings)
    : CsProjGenerator(settings.TargetFrameworkMoniker, settings.CustomDotNetCliPath!, settings.PackagesPath!, settings.RuntimeFrameworkVersion!)
{
    /// <inheritdoc />
    protected override string GetBuildArtifactsDirectoryPath(BuildPartition buildPartition, string programName)
        => base.GetBuildArtifactsDirectoryPath(buildPartition, programName) + $"-p{Environment.ProcessId}";
}
