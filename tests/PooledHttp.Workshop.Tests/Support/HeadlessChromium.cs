namespace PooledHttp.Tests.Support;

/// <summary>
/// Debian's Chromium, headless, with every network feature off: what a page shows here it shows with no
/// network. .ci/run installs it (apt-get install chromium).
/// </summary>
internal static class HeadlessChromium
{
    /// <summary>Loads <paramref name="page"/>, lets its scripts run, and returns the DOM it ended with.</summary>
    public static async Task<string> DumpDomAsync(string page)
    {
        string? browser = new[] { "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome" }.FirstOrDefault(File.Exists);
        Assert.True(browser is not null, "Chromium is not installed: apt-get install chromium (.ci/run does it)");
        string profile = Directory.CreateTempSubdirectory("pooledhttp-chromium-").FullName;
        try
        {
            string[] arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                $"--user-data-dir={profile}", "--virtual-time-budget=10000", "--dump-dom", new Uri(page).AbsoluteUri,
            ];
            (int exit, string dom, string log) = await ChildProcess.RunAsync(browser!, arguments, TimeSpan.FromMinutes(2));
            Assert.True(exit == 0, $"Chromium exited with {exit}: {log}");
            return dom;
        }
        finally
        {
            Directory.Delete(profile, recursive: true);
        }
    }
}
