using PooledHttp.Workshop.Charts;

namespace PooledHttp.Tests.Support;

/// <summary>
/// The browser the chart tests draw in: the Chromium, Chrome or Edge that <see cref="ChromiumLocator"/> finds (the
/// tools find theirs there too), headless, with every network feature off, so what a page shows here it shows with no
/// network. The tests install nothing: <c>.ci/run</c> installs Debian's Chromium where none is found, and elsewhere
/// the tests that need one are skipped (<see cref="BrowserFactAttribute"/>) saying what to install.
/// </summary>
internal static class HeadlessChromium
{
    private static readonly Lazy<BrowserLookup> Found = new(ChromiumLocator.Locate);

    /// <summary>This machine's browser, or why there is none.</summary>
    public static BrowserLookup Lookup => Found.Value;

    /// <summary>The browser's executable; only tests marked <see cref="BrowserFactAttribute"/> or <see cref="BrowserTheoryAttribute"/> ask.</summary>
    public static string Path => Lookup.Path ?? throw new InvalidOperationException(Lookup.Message);

    /// <summary>A screenshot of <paramref name="page"/> in a window of <paramref name="width"/> by <paramref name="height"/>, written to <paramref name="png"/>.</summary>
    public static async Task ScreenshotAsync(string page, int width, int height, string png)
    {
        string profile = Directory.CreateTempSubdirectory("pooledhttp-chromium-").FullName;
        try
        {
            string[] arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--force-device-scale-factor=1",
                $"--user-data-dir={profile}", $"--window-size={width},{height}", "--virtual-time-budget=5000", $"--screenshot={png}", new Uri(page).AbsoluteUri,
            ];
            (int exit, _, string log) = await ChildProcess.RunAsync(Path, arguments, TimeSpan.FromMinutes(2));
            Assert.True(exit == 0 && File.Exists(png), $"The browser ({Path}) took no screenshot (exit {exit}): {log}");
        }
        finally
        {
            Directory.Delete(profile, recursive: true);
        }
    }

    /// <summary>Loads <paramref name="page"/>, lets its scripts run, and returns the DOM it ended with.</summary>
    public static async Task<string> DumpDomAsync(string page)
    {
        string profile = Directory.CreateTempSubdirectory("pooledhttp-chromium-").FullName;
        try
        {
            string[] arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                $"--user-data-dir={profile}", "--virtual-time-budget=10000", "--dump-dom", new Uri(page).AbsoluteUri,
            ];
            (int exit, string dom, string log) = await ChildProcess.RunAsync(Path, arguments, TimeSpan.FromMinutes(2));
            Assert.True(exit == 0, $"The browser ({Path}) exited with {exit}: {log}");
            return dom;
        }
        finally
        {
            Directory.Delete(profile, recursive: true);
        }
    }
}
