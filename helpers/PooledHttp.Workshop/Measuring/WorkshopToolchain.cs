using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains;
using BenchmarkDotNet.Toolchains.CsProj;
using BenchmarkDotNet.Toolchains.DotNetCli;
using BenchmarkDotNet.Validators;

namespace PooledHttp.Measuring;

/// <summary>
/// BenchmarkDotNet's project toolchain with two changes: the generated project is built by
/// <see cref="IncrementalBuilder"/>, and any installed SDK may build for an older runtime.
/// </summary>
/// <remarks>
/// <para>The generator (the generated program and project) and the executor (one child process per
/// case) are <see cref="CsProjCoreToolchain"/>'s own, so what is measured and how is unchanged.</para>
/// <para>BenchmarkDotNet 0.14 validates a <c>net8.0</c> job by looking for an SDK whose version starts
/// with "8.0" (its <c>DotNetSdkValidator</c>), and refuses the job on a machine with only the .NET 10
/// SDK, although that SDK builds for <c>net8.0</c> and <c>net9.0</c>. This toolchain keeps every other
/// check, and adds that a named dotnet executable exists.</para>
/// </remarks>
internal sealed class WorkshopToolchain : Toolchain
{
    private readonly string? _dotnet;

    private WorkshopToolchain(CsProjCoreToolchain inner, string? dotnet)
        : base(inner.Name, inner.Generator, new IncrementalBuilder(dotnet), inner.Executor)
        => _dotnet = dotnet;

    /// <summary>The toolchain for the runtime running this process, built by the <c>dotnet</c> on the PATH.</summary>
    public static WorkshopToolchain ForThisRuntime { get; } = From(new NetCoreAppSettings(
        $"net{Environment.Version.Major}.0", runtimeFrameworkVersion: null, name: $".NET {Environment.Version.Major}.0"));

    /// <summary>The toolchain for <paramref name="settings"/>; its <see cref="NetCoreAppSettings.CustomDotNetCliPath"/> names the dotnet to build and run with, or is null for the one on the PATH.</summary>
    public static WorkshopToolchain From(NetCoreAppSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return new((CsProjCoreToolchain)CsProjCoreToolchain.From(settings), settings.CustomDotNetCliPath);
    }

    /// <inheritdoc />
    public override IEnumerable<ValidationError> Validate(BenchmarkCase benchmarkCase, BenchmarkDotNet.Characteristics.IResolver resolver)
    {
        foreach (ValidationError error in base.Validate(benchmarkCase, resolver))
        {
            yield return error;
        }

        if (_dotnet is not null && !File.Exists(_dotnet))
        {
            yield return new ValidationError(true, $"The dotnet executable {_dotnet} does not exist: run Runtimes.All again to rebuild the workshop's dotnet root.", benchmarkCase);
        }
    }
}
