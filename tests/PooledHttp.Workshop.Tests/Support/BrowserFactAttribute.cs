namespace PooledHttp.Tests.Support;

/// <summary>A fact that needs a headless browser: skipped, saying what to install, when <see cref="HeadlessChromium"/> finds none.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class BrowserFactAttribute : FactAttribute
{
    public BrowserFactAttribute()
    {
        if (!HeadlessChromium.Lookup.Found)
        {
            Skip = HeadlessChromium.Lookup.Message;
        }
    }
}
