namespace PooledHttp.Workshop.Load;

/// <summary>
/// Starts the kernel's count of this process's peak resident set again, so that the peak a run reports covers its
/// measured downloads and not the warm-up before them.
/// </summary>
/// <remarks>Linux only: writing 5 to <c>/proc/self/clear_refs</c> resets the peak (<c>VmHWM</c>, which
/// <see cref="System.Diagnostics.Process.PeakWorkingSet64"/> reads there) to the current resident set; see the
/// kernel's <c>Documentation/filesystems/proc.rst</c>, "clear_refs". Windows and macOS have no such reset.</remarks>
internal static class PeakWorkingSet
{
    private const string ClearRefs = "/proc/self/clear_refs";

    /// <summary>Resets the peak; false where it cannot be.</summary>
    public static bool TryReset()
    {
        if (!OperatingSystem.IsLinux())
        {
            return false;
        }

        try
        {
            File.WriteAllText(ClearRefs, "5");
            return true;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }
}
