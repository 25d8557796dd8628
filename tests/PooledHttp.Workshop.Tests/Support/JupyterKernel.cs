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
/// Jupyter with the .NET Interactive kernel, the real notebook host: <c>jupyter nbconvert</c> and the tool that is the
/// kernel, which the tests start through a kernelspec of their own (<see cref="WriteKernelSpec"/>), named
/// <c>.net-csharp</c> as a user's registration names it. Outside CI, a test that needs them is skipped saying exactly what to install
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
        "To run them: apt-get install jupyter-nbconvert python3-nbclient jupyter-client (Debian; or pip install nbconvert nbclient jupyter-client); "
        + $"dotnet tool install {InteractiveTool.PackageId} --version {InteractiveTool.PinnedVersion} --tool-path {InteractiveTool.RepositoryToolPath} (from the repository root); "
        + $"the tests write their own kernelspec for it. .ci/run does both, and registers the kernel as a user would (dotnet interactive jupyter install).";

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

        string? tool = ToolFolder();
        if (tool is null)
        {
            missing.Add($"the {InteractiveTool.PackageId} tool (`{InteractiveTool.Command}` is neither in {InteractiveTool.RepositoryToolPath}, nor in ~/.dotnet/tools, nor on the PATH)");
        }
        else if (UnderCi && !PinnedToolIn(tool))
        {
            // Under CI the kernel must be the one .ci/run installed at the pin, not whatever a machine happens to have.
            missing.Add($"the pinned tool: {InteractiveTool.PackageId} {InteractiveTool.PinnedVersion} in {InteractiveTool.RepositoryToolPath} (found `{InteractiveTool.Command}` in {tool})");
        }

        return missing.Count == 0
            ? new JupyterLookup(true, $"Jupyter, and the kernel's tool in {tool}", tool)
            : new JupyterLookup(false, $"missing {string.Join("; ", missing)}. {HowToInstall}", tool);
    }

    /// <summary>Whether <paramref name="folder"/> is the repository's tool path and its tool says it is the pinned version ("1.0.712001+df4e5cb…").</summary>
    private static bool PinnedToolIn(string folder)
    {
        if (!string.Equals(Path.GetFullPath(folder), Path.GetFullPath(InteractiveTool.ToolPath), StringComparison.Ordinal))
        {
            return false;
        }

        (int exit, string version) = Run(Path.Combine(folder, InteractiveTool.Command), "--version");
        return exit == 0 && version.Trim().StartsWith(InteractiveTool.PinnedVersion + "+", StringComparison.Ordinal);
    }

    /// <summary>
    /// A kernelspec of the test's own, in <paramref name="folder"/> (give Jupyter that folder as <c>JUPYTER_PATH</c>):
    /// the arguments <c>dotnet interactive jupyter install</c> writes, but starting the tool found by the lookup by its
    /// full path, whatever the user registered, and with an HTTP port range away from the 2048-3000 every other .NET
    /// kernel on the machine picks from (the tool finds a free port and binds it a moment later: two kernels starting
    /// together can race for one).
    /// </summary>
    public static void WriteKernelSpec(string folder, string toolFolder)
    {
        string spec = Path.Combine(folder, "kernels", KernelName);
        Directory.CreateDirectory(spec);
        int low = 20_000 + Random.Shared.Next(0, 200) * 100;
        var kernel = new
        {
            argv = new[] { Path.Combine(toolFolder, InteractiveTool.Command), "jupyter", "--default-kernel", "csharp", "{connection_file}", "--http-port-range", $"{low}-{low + 99}" },
            display_name = ".NET (C#)",
            language = "C#",
        };
        File.WriteAllText(Path.Combine(spec, "kernel.json"), JsonSerializer.Serialize(kernel));
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
