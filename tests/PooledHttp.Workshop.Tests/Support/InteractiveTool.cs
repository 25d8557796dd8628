namespace PooledHttp.Tests.Support;

/// <summary>
/// The .NET Interactive tool, the C# kernel Jupyter starts: the one version the repository pins, in
/// <c>.config/dotnet-interactive.version</c>, which <c>.devcontainer/on-create.sh</c> and <c>.ci/run</c> read and the
/// README and docs are held to (<c>ToolPinTests</c>); and the folder <c>.ci/run</c> installs it into. A plain file, not
/// a local tool manifest: with a <c>dotnet-tools.json</c> in the repository, the <c>dotnet interactive</c> that Jupyter
/// starts in <c>notebooks/</c> refuses to run ("Run dotnet tool restore ...") whichever tool is on the PATH.
/// </summary>
internal static class InteractiveTool
{
    /// <summary>The tool's NuGet package.</summary>
    public const string PackageId = "Microsoft.dotnet-interactive";

    /// <summary>Its command, which <c>dotnet interactive</c> runs from the PATH.</summary>
    public const string Command = "dotnet-interactive";

    private static readonly string Root = Repository.RepositoryTests.FindRoot();

    private static readonly Lazy<string> Pin = new(ReadPin);

    /// <summary>The file that holds the pin, relative to the repository root.</summary>
    public const string PinFile = ".config/dotnet-interactive.version";

    /// <summary>The pinned version, as the file has it.</summary>
    public static string PinnedVersion => Pin.Value;

    /// <summary>The tool path <c>.ci/run</c> installs the pinned version into, relative to the repository root.</summary>
    public const string RepositoryToolPath = "artifacts/tools/dotnet-interactive";

    /// <summary>The same, in full.</summary>
    public static string ToolPath => Path.Combine(Root, RepositoryToolPath);

    private static string ReadPin() => File.ReadAllText(Path.Combine(Root, PinFile)).Trim();
}
