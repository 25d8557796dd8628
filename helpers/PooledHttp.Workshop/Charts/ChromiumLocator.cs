namespace PooledHttp.Workshop.Charts;

/// <summary>
/// Finds a Chromium-based browser (Chromium, Chrome or Edge) that can draw a chart headless, where each platform
/// installs one; the variable <see cref="OverrideVariable"/> names one explicitly and then nothing else is tried.
/// The one place the tools (<c>tools/Publish/RenderChart</c>, <c>tools/Publish/RenderChapters</c>), <c>.ci/run</c> and the tests
/// look for a browser.
/// </summary>
public static class ChromiumLocator
{
    /// <summary>The environment variable that names the browser's executable, overriding the search.</summary>
    public const string OverrideVariable = "CHROME_PATH";

    /// <summary>Executable names looked up on PATH, preferred first (Debian's package is <c>chromium</c>).</summary>
    private static readonly string[] PathNames = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "microsoft-edge", "microsoft-edge-stable"];

    private static readonly string[] MacBundles =
    [
        "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
        "/Applications/Chromium.app/Contents/MacOS/Chromium",
        "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
    ];

    private static readonly string[] WindowsFolders = ["ProgramFiles", "ProgramFiles(x86)", "LocalAppData"];

    private static readonly string[] WindowsExecutables = [@"Google\Chrome\Application\chrome.exe", @"Chromium\Application\chrome.exe", @"Microsoft\Edge\Application\msedge.exe"];

    /// <summary>The platform this process runs on.</summary>
    public static BrowserPlatform CurrentPlatform
        => OperatingSystem.IsWindows() ? BrowserPlatform.Windows : OperatingSystem.IsMacOS() ? BrowserPlatform.MacOS : BrowserPlatform.Linux;

    /// <summary>Looks for a browser on this machine.</summary>
    public static BrowserLookup Locate() => Locate(CurrentPlatform, Environment.GetEnvironmentVariable, File.Exists);

    /// <summary>
    /// Looks for a browser on <paramref name="platform"/>, reading environment variables through <paramref name="variable"/>
    /// and asking <paramref name="exists"/> whether a file is there: a test gives both, to stand for any machine.
    /// </summary>
    public static BrowserLookup Locate(BrowserPlatform platform, Func<string, string?> variable, Func<string, bool> exists)
    {
        ArgumentNullException.ThrowIfNull(variable);
        ArgumentNullException.ThrowIfNull(exists);
        if (variable(OverrideVariable) is { Length: > 0 } named)
        {
            return exists(named)
                ? new BrowserLookup(named, $"{named} (from {OverrideVariable})")
                : new BrowserLookup(null, $"{OverrideVariable} names {named}, which does not exist: set it to a Chrome, Chromium or Edge executable, or unset it to search the usual places.");
        }

        IReadOnlyList<string> candidates = Candidates(platform, variable);
        return candidates.FirstOrDefault(exists) is { } found
            ? new BrowserLookup(found, found)
            : new BrowserLookup(null, $"No Chrome, Chromium or Edge was found (looked for {string.Join(", ", candidates.Select(c => $"'{c}'").DefaultIfEmpty("nothing: PATH is empty"))}). {WhatToInstall(platform)}");
    }

    /// <summary>Every place a browser is looked for on <paramref name="platform"/>, in order, the override aside.</summary>
    public static IReadOnlyList<string> Candidates(BrowserPlatform platform, Func<string, string?> variable)
    {
        ArgumentNullException.ThrowIfNull(variable);
        var candidates = new List<string>();
        if (platform == BrowserPlatform.Windows)
        {
            foreach (string folder in WindowsFolders)
            {
                if (variable(folder) is { Length: > 0 } root)
                {
                    candidates.AddRange(WindowsExecutables.Select(executable => root.TrimEnd('\\') + '\\' + executable));
                }
            }

            return candidates;
        }

        if (platform == BrowserPlatform.MacOS)
        {
            candidates.AddRange(MacBundles);
        }

        // On Linux and macOS, PATH's folders are separated by ':' whatever platform the lookup runs on (a test may stand for another).
        string[] folders = (variable("PATH") ?? string.Empty).Split(':', StringSplitOptions.RemoveEmptyEntries);
        foreach (string name in PathNames)
        {
            candidates.AddRange(folders.Select(folder => folder.TrimEnd('/') + '/' + name));
        }

        return candidates;
    }

    /// <summary>A sentence saying what to install on <paramref name="platform"/>, or how to name a browser already there.</summary>
    public static string WhatToInstall(BrowserPlatform platform) => platform switch
    {
        BrowserPlatform.Windows => $"Install Google Chrome or Microsoft Edge, or set {OverrideVariable} to a chrome.exe or msedge.exe.",
        BrowserPlatform.MacOS => $"Install Google Chrome, Chromium or Microsoft Edge into /Applications, or set {OverrideVariable} to the browser's executable.",
        _ => $"Install Chromium (Debian and Ubuntu: sudo apt-get install chromium) or Google Chrome, or set {OverrideVariable} to the browser's executable.",
    };
}
