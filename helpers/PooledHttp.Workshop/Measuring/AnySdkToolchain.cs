using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains;
using BenchmarkDotNet.Toolchains.CsProj;
using BenchmarkDotNet.Toolchains.DotNetCli;
using BenchmarkDotNet.Validators;

namespace PooledHttp.Measuring;

/// <summary>
/// BenchmarkDotNet's project toolchain for an older runtime, built by whatever SDK is installed.
/// </summary>
/// <remarks>
/// BenchmarkDotNet 0.14 validates a <c>net8.0</c> job by looking for an SDK whose version starts with
/// "8.0" (its <c>DotNetSdkValidator</c>), and refuses the job on a machine with only the .NET 10 SDK,
/// although that SDK builds for <c>net8.0</c> and <c>net9.0</c>. This toolchain is the same generator,
/// builder and executor as <see cref="CsProjCoreToolchain"/>, minus that check; what it keeps is the
/// check that the dotnet executable exists.
/// </remarks>
internal sealed class AnySdkToolchain : Toolchain
{
    private readonly string _dotnet;

    private AnySdkToolchain(CsProjCoreToolchain inner, string dotnet)
        : base(inner.Name, inner.Generator, inner.Builder, inner.Executor)
        => _dotnet = dotnet;

    /// <summary>The toolchain for <paramref name="settings"/>, whose <see cref="NetCoreAppSettings.CustomDotNetCliPath"/> must be set.</summary>
    public static AnySdkToolchain From(NetCoreAppSettings settings)
        => new((CsProjCoreToolchain)CsProjCoreToolchain.From(settings), settings.CustomDotNetCliPath ?? throw new ArgumentException("Name the dotnet executable.", nameof(settings)));

    /// <inheritdoc />
    public override IEnumerable<ValidationError> Validate(BenchmarkCase benchmarkCase, BenchmarkDotNet.Characteristics.IResolver resolver)
    {
        foreach (ValidationError error in base.Validate(benchmarkCase, resolver))
        {
            yield return error;
        }

        if (!File.Exists(_dotnet))
        {
            yield return new ValidationError(true, $"The dotnet executable {_dotnet} does not exist: run Runtimes.All again to rebuild the workshop's dotnet root.", benchmarkCase);
        }
    }
}
