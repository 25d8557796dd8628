using System.ComponentModel;
using System.Diagnostics;
using System.Text.Json;

namespace PooledHttp.Tests.Support;

/// <summary>What the lookup found: whether Jupyter, the <c>.net-csharp</c> kernel and its tool are all here, and if not, what is missing and what to install.</summary>
internal sealed record JupyterLookup(bool Found, string Message, string? ToolFolder)
{
    /// <summary>Why a test that needs them is skipped, outside CI.</summary>
    public string SkipReason => $"Jupyter tests skipped: {Message}";

    /// <summary>Why it fails, under CI.</summary>
    public string CiFailure => $"Under CI ({JupyterKernel.CiVariable}=1) the Jupyter tests must run: {Message}";
}

/// <summary>
/// Jupyter with the .NET Interactive kernel, the real notebook host: <c>jupyter nbconvert</c>, the kernel registered
/// as <c>.net-csharp</c>, and the tool its kernel.json starts (<c>dotnet interactive jupyter …</c>, so the tool must be
/// on the PATH Jupyter starts it with). Outside CI, a test that needs them is skipped saying exactly what to install
/// (<see cref="JupyterFactAttribute"/>); under CI (<c>.ci/run</c> sets <see cref="CiVariable"/> to 1, after installing
/// them) a missing piece fails the test instead.
/// </summary>
internal static class JupyterKernel
{
    /// <summary>The kernel's name in Jupyter, as the notebooks' metadata name it.</summary>
    public const string KernelName = ".net-csharp";

    /// <summary>Set to 1 by <c>.ci/run</c>.</summary>
    public const string CiVariable = "POOLEDHTTP_CI";

    private static readonly Lazy<JupyterLookup> Found = new(Look);

    /// <summary>Whether the tests run under CI, where nothing they need may be missing.</summary>
    public static bool UnderCi => Environment.GetEnvironmentVariable(CiVariable) == "1";

    /// <summary>This machine's Jupyter and kernel, or what is missing.</summary>
    public static JupyterLookup Lookup => Found.Value;

    /// <summary>What to install, in the order to do it (what <c>.ci/run</c> does).</summary>
    public static string HowToInstall =>
        "To run them: apt-get install jupyter-nbconvert python3-nbclient jupyter-client python3-ipykernel (Debian; or pip install nbconvert nbclient jupyter-client ipykernel); "
        + $"dotnet tool install {InteractiveTool.PackageId} --version {InteractiveTool.PinnedVersion} --tool-path {InteractiveTool.RepositoryToolPath} (from the repository root); "
        + $"then, with that folder on the PATH, dotnet interactive jupyter install. .ci/run does all three.";

    /// <summary>
    /// The PATH for a Jupyter child: the folder the tool was found in first, so that the kernel Jupyter starts
    /// (<c>dotnet interactive</c>) is that tool.
    /// </summary>
    public static string PathFor(string toolFolder) => toolFolder + Path.PathSeparator + Environment.GetEnvironmentVariable("PATH");

    private static JupyterLookup Look()
    {
        var missing = new List<string>();
        (int nbconvert, _) = Run("jupyter", "nbconvert", "--version");
        if (nbconvert != 0)
        {
            missing.Add("Jupyter (`jupyter nbconvert` does not run)");
        }
        else
        {
            (int listed, string specs) = Run("jupyter", "kernelspec", "list", "--json");
            if (listed != 0 || !HasKernel(specs))
            {
                missing.Add($"the .NET Interactive kernel ({KernelName} is not among Jupyter's kernels)");
            }
        }

        string? tool = ToolFolder();
        if (tool is null)
        {
            missing.Add($"the {InteractiveTool.PackageId} tool (`{InteractiveTool.Command}` is neither in {InteractiveTool.RepositoryToolPath}, nor in ~/.dotnet/tools, nor on the PATH)");
        }

        return missing.Count == 0
            ? new JupyterLookup(true, $"Jupyter with the {KernelName} kernel, its tool in {tool}", tool)
            : new JupyterLookup(false, $"missing {string.Join("; ", missing)}. {HowToInstall}", tool);
    }

    private static bool HasKernel(string json)
    {
        try
        {
            using JsonDocument specs = JsonDocument.Parse(json);
            return specs.RootElement.GetProperty("kernelspecs").TryGetProperty(KernelName, out _);
        }
        catch (JsonException)
        {
            return false;
        }
    }

    /// <summary>The repository's tool path first (where <c>.ci/run</c> installs the pinned version), then a global install, then the PATH.</summary>
    private static string? ToolFolder()
    {
        string home = Environment.GetFolderPath(Environment.SpecialFolder.UserProfile);
        IEnumerable<string> folders = new[] { InteractiveTool.ToolPath, Path.Combine(home, ".dotnet", "tools") }
            .Concat((Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries));
        string command = OperatingSystem.IsWindows() ? InteractiveTool.Command + ".exe" : InteractiveTool.Command;
        return folders.FirstOrDefault(folder => File.Exists(Path.Combine(folder, command)));
    }

    /// <summary>Runs a short command to the end, synchronously (an attribute's constructor cannot wait); exit -1 when it does not start or hangs.</summary>
    private static (int Exit, string Output) Run(string file, params string[] arguments)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        try
        {
            using Process process = Process.Start(start)!;
            Task<string> output = process.StandardOutput.ReadToEndAsync();
            Task<string> error = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit(TimeSpan.FromSeconds(60)))
            {
                process.Kill(entireProcessTree: true);
                return (-1, string.Empty);
            }

            _ = error.Result;
            return (process.ExitCode, output.Result);
        }
        catch (Win32Exception)
        {
            return (-1, string.Empty); // not installed
        }
    }
}

/// <summary>
/// A fact that needs Jupyter and the .NET Interactive kernel: skipped, saying what to install, when
/// <see cref="JupyterKernel"/> finds them missing, except under CI, where the test runs and fails.
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class JupyterFactAttribute : FactAttribute
{
    public JupyterFactAttribute()
    {
        if (!JupyterKernel.UnderCi && !JupyterKernel.Lookup.Found)
        {
            Skip = JupyterKernel.Lookup.SkipReason;
        }
    }
}
