namespace PooledHttp.Tests.Support;

/// <summary>A theory that needs a headless browser: skipped, saying what to install, when <see cref="HeadlessChromium"/> finds none.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class BrowserTheoryAttribute : TheoryAttribute
{
    public BrowserTheoryAttribute()
    {
        if (!HeadlessChromium.Lookup.Found)
        {
            Skip = HeadlessChromium.Lookup.Message;
        }
    }
}
