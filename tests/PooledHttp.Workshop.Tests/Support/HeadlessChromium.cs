namespace PooledHttp.Tests.Support;

/// <summary>
/// Debian's Chromium, headless, with every network feature off: what a page shows here it shows with no
/// network. A test that needs it finds it, or installs it once per test run with apt-get when it may (as root,
/// or with sudo that asks no password), and otherwise fails saying what to install.
/// </summary>
internal static class HeadlessChromium
{
    private static readonly string[] Candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

    private static readonly Lazy<Task<string>> Browser = new(FindOrInstallAsync);

    /// <summary>Loads <paramref name="page"/>, lets its scripts run, and returns the DOM it ended with.</summary>
    public static async Task<string> DumpDomAsync(string page)
    {
        string browser = await Browser.Value;
        string profile = Directory.CreateTempSubdirectory("pooledhttp-chromium-").FullName;
        try
        {
            string[] arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                $"--user-data-dir={profile}", "--virtual-time-budget=10000", "--dump-dom", new Uri(page).AbsoluteUri,
            ];
            (int exit, string dom, string log) = await ChildProcess.RunAsync(browser, arguments, TimeSpan.FromMinutes(2));
            Assert.True(exit == 0, $"Chromium exited with {exit}: {log}");
            return dom;
        }
        finally
        {
            Directory.Delete(profile, recursive: true);
        }
    }

    private static async Task<string> FindOrInstallAsync()
    {
        if (Candidates.FirstOrDefault(File.Exists) is { } found)
        {
            return found;
        }

        const string Manual = "Install Debian's chromium package (as root, or with sudo) and run the tests again.";
        if (!File.Exists("/usr/bin/apt-get"))
        {
            Assert.Fail($"The chart tests need Chromium, which is not installed, and there is no apt-get here to install it. {Manual}");
        }

        (int idExit, string uid, _) = await ChildProcess.RunAsync("id", ["-u"], TimeSpan.FromSeconds(10));
        bool root = idExit == 0 && uid.Trim() == "0";
        string[] sudo = root ? [] : ["sudo", "-n"];
        if (!root && (await ChildProcess.RunAsync("sudo", ["-n", "true"], TimeSpan.FromSeconds(10))).ExitCode != 0)
        {
            Assert.Fail($"The chart tests need Chromium, which is not installed, and installing it needs root (sudo asks for a password here). {Manual}");
        }

        // Once per test run, whichever test needs the browser first.
        foreach (string[] step in new[] { new[] { "apt-get", "update", "-qq" }, new[] { "apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium" } })
        {
            string[] command = [.. sudo, "env", "DEBIAN_FRONTEND=noninteractive", .. step];
            (int exit, string output, string error) = await ChildProcess.RunAsync(command[0], command[1..], TimeSpan.FromMinutes(10));
            Assert.True(exit == 0, $"Installing Chromium failed ({string.Join(' ', step)}, exit {exit}): {error}{output} {Manual}");
        }

        return Candidates.FirstOrDefault(File.Exists) ?? throw new InvalidOperationException($"The chromium package was installed, yet none of {string.Join(", ", Candidates)} exists. {Manual}");
    }
}
