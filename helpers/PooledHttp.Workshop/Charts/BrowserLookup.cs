namespace PooledHttp.Workshop.Charts;

/// <summary>What <see cref="ChromiumLocator"/> found: the browser's path, or null and a sentence saying what to install.</summary>
/// <param name="Path">The browser's executable, or null when none was found.</param>
/// <param name="Message">Where the browser was found, or why none was and what to install.</param>
public sealed record BrowserLookup(string? Path, string Message)
{
    /// <summary>Whether a browser was found.</summary>
    public bool Found => Path is not null;
}
