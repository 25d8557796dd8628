using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains;
using BenchmarkDotNet.Toolchains.CsProj;
using BenchmarkDotNet.Toolchains.DotNetCli;
using BenchmarkDotNet.Validators;

namespace PooledHttp.Workshop.Building;

/// <summary>
/// BenchmarkDotNet's project toolchain with two changes: the generated project is built by
/// <see cref="IncrementalBuilder"/>, so a run compiles its generated program and not the whole kit, and it is
/// generated in a folder of this process's own (<see cref="ProcessOwnGenerator"/>), so two notebooks can measure at once.
/// </summary>
/// <remarks>
/// The generated program and project, the executor (one child process per case) and every validation (the SDK
/// check included) are <see cref="CsProjCoreToolchain"/>'s own, so what is measured, how, and what is refused are
/// unchanged.
/// </remarks>
internal sealed class WorkshopToolchain : Toolchain
{
    private readonly CsProjCoreToolchain _inner;

    private WorkshopToolchain(CsProjCoreToolchain inner, NetCoreAppSettings settings)
        : base(inner.Name, new ProcessOwnGenerator(settings), new IncrementalBuilder(settings.CustomDotNetCliPath), inner.Executor)
        => _inner = inner;

    /// <summary>The toolchain for the runtime running this process, built by the <c>dotnet</c> on the PATH.</summary>
    public static WorkshopToolchain ForThisRuntime { get; } = From(new NetCoreAppSettings(
        $"net{Environment.Version.Major}.0", runtimeFrameworkVersion: null, name: $".NET {Environment.Version.Major}.0"));

    /// <summary>The toolchain for <paramref name="settings"/>; its <see cref="NetCoreAppSettings.CustomDotNetCliPath"/> names the dotnet to build and run with, or is null for the one on the PATH.</summary>
    public static WorkshopToolchain From(NetCoreAppSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return new((CsProjCoreToolchain)CsProjCoreToolchain.From(settings), settings);
    }

    /// <inheritdoc />
    public override IEnumerable<ValidationError> Validate(BenchmarkCase benchmarkCase, BenchmarkDotNet.Characteristics.IResolver resolver)
        => _inner.Validate(benchmarkCase, resolver);
}
