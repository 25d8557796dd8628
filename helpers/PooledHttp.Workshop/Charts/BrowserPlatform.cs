namespace PooledHttp.Workshop.Charts;

/// <summary>The operating systems whose usual Chrome, Chromium and Edge install places <see cref="ChromiumLocator"/> knows.</summary>
public enum BrowserPlatform
{
    /// <summary>Linux: browsers are found on PATH.</summary>
    Linux,

    /// <summary>macOS: application bundles under <c>/Applications</c>, then PATH.</summary>
    MacOS,

    /// <summary>Windows: the per-machine and per-user program folders.</summary>
    Windows,
}
