using PooledHttp.Workshop.Charts;

namespace PooledHttp.Tests.Plotting;

/// <summary>
/// The browser lookup the tools and the tests share, on stand-in machines: each test gives the environment variables
/// and the files that exist, so one machine checks the lookup of all three platforms.
/// </summary>
public class ChromiumLocatorTests
{
    private static BrowserLookup Locate(BrowserPlatform platform, Dictionary<string, string> variables, params string[] files)
        => ChromiumLocator.Locate(platform, name => variables.GetValueOrDefault(name), files.Contains);

    [Fact]
    public void On_linux_the_first_preferred_name_on_path_wins_whichever_folder_holds_it()
    {
        var variables = new Dictionary<string, string> { ["PATH"] = "/home/me/bin:/usr/local/bin:/usr/bin" };

        BrowserLookup lookup = Locate(BrowserPlatform.Linux, variables, "/home/me/bin/microsoft-edge", "/usr/bin/google-chrome-stable", "/usr/local/bin/google-chrome");

        Assert.Equal("/usr/local/bin/google-chrome", lookup.Path);
        Assert.True(lookup.Found);
    }

    [Fact]
    public void On_linux_debians_chromium_comes_before_chrome()
    {
        var variables = new Dictionary<string, string> { ["PATH"] = "/usr/local/bin:/usr/bin/" };

        Assert.Equal("/usr/bin/chromium", Locate(BrowserPlatform.Linux, variables, "/usr/local/bin/google-chrome", "/usr/bin/chromium").Path);
    }

    [Fact]
    public void The_override_wins_over_every_installed_browser()
    {
        var variables = new Dictionary<string, string> { ["PATH"] = "/usr/bin", [ChromiumLocator.OverrideVariable] = "/opt/chrome-test/chrome" };

        Assert.Equal("/opt/chrome-test/chrome", Locate(BrowserPlatform.Linux, variables, "/usr/bin/chromium", "/opt/chrome-test/chrome").Path);
    }

    [Fact]
    public void An_override_naming_no_file_finds_nothing_and_says_so_rather_than_searching_elsewhere()
    {
        var variables = new Dictionary<string, string> { ["PATH"] = "/usr/bin", [ChromiumLocator.OverrideVariable] = "/opt/gone/chrome" };

        BrowserLookup lookup = Locate(BrowserPlatform.Linux, variables, "/usr/bin/chromium");

        Assert.Null(lookup.Path);
        Assert.False(lookup.Found);
        Assert.Contains("CHROME_PATH names /opt/gone/chrome, which does not exist", lookup.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome")]
    [InlineData("/Applications/Chromium.app/Contents/MacOS/Chromium")]
    [InlineData("/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge")]
    public void On_macos_an_application_bundle_is_found(string executable)
    {
        var variables = new Dictionary<string, string> { ["PATH"] = "/usr/bin:/opt/homebrew/bin" };

        Assert.Equal(executable, Locate(BrowserPlatform.MacOS, variables, executable).Path);
    }

    [Fact]
    public void On_macos_a_bundle_comes_before_a_browser_on_path()
    {
        var variables = new Dictionary<string, string> { ["PATH"] = "/opt/homebrew/bin" };

        BrowserLookup lookup = Locate(BrowserPlatform.MacOS, variables, "/opt/homebrew/bin/chromium", "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge");

        Assert.Equal("/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge", lookup.Path);
    }

    [Fact]
    public void On_windows_chrome_and_edge_are_found_in_the_program_folders_and_the_users_own()
    {
        var variables = new Dictionary<string, string>
        {
            ["ProgramFiles"] = @"C:\Program Files",
            ["ProgramFiles(x86)"] = @"C:\Program Files (x86)\",
            ["LocalAppData"] = @"C:\Users\me\AppData\Local",
        };

        Assert.Equal(@"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe", Locate(BrowserPlatform.Windows, variables, @"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe").Path);
        Assert.Equal(@"C:\Users\me\AppData\Local\Google\Chrome\Application\chrome.exe", Locate(BrowserPlatform.Windows, variables, @"C:\Users\me\AppData\Local\Google\Chrome\Application\chrome.exe").Path);
        // Both installed: Chrome in Program Files is looked at first.
        Assert.Equal(
            @"C:\Program Files\Google\Chrome\Application\chrome.exe",
            Locate(BrowserPlatform.Windows, variables, @"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe", @"C:\Program Files\Google\Chrome\Application\chrome.exe").Path);
    }

    [Fact]
    public void On_windows_path_is_not_searched_and_a_missing_folder_variable_is_skipped()
    {
        var variables = new Dictionary<string, string> { ["PATH"] = @"C:\tools", ["LocalAppData"] = @"C:\Users\me\AppData\Local" };

        IReadOnlyList<string> candidates = ChromiumLocator.Candidates(BrowserPlatform.Windows, name => variables.GetValueOrDefault(name));

        Assert.NotEmpty(candidates);
        Assert.All(candidates, c => Assert.StartsWith(@"C:\Users\me\AppData\Local\", c, StringComparison.Ordinal));
    }

    [Theory]
    [InlineData(BrowserPlatform.Linux, "sudo apt-get install chromium")]
    [InlineData(BrowserPlatform.MacOS, "into /Applications")]
    [InlineData(BrowserPlatform.Windows, "Install Google Chrome or Microsoft Edge")]
    public void With_no_browser_the_lookup_finds_nothing_and_says_what_to_install(BrowserPlatform platform, string advice)
    {
        var variables = new Dictionary<string, string> { ["PATH"] = "/usr/bin", ["ProgramFiles"] = @"C:\Program Files" };

        BrowserLookup lookup = Locate(platform, variables, "/usr/bin/firefox", @"C:\Program Files\Mozilla Firefox\firefox.exe");

        Assert.Null(lookup.Path);
        Assert.Contains(advice, lookup.Message, StringComparison.Ordinal);
        Assert.Contains("CHROME_PATH", lookup.Message, StringComparison.Ordinal);
    }
}
