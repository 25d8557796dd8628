namespace PooledHttp.Workshop.Building;

/// <summary>
/// The one lock every build of the workshop's projects takes: the kit for the notebooks
/// (<c>notebooks/workshop.csx</c>, which carries a copy of this rule), the exercises, the load probe and
/// BenchmarkDotNet's generated projects. They all write the same <c>helpers/*/obj</c> folders, and two
/// MSBuilds in one <c>obj</c> folder break each other's output. Fetching a runtime takes a lock of its own
/// (<see cref="Fetching.FetchLock"/>), so a fetch never waits for a build nor a build for a fetch.
/// </summary>
internal static class BuildLock
{
    /// <summary>The lock file: held open, unshared, for as long as a build runs.</summary>
    public static readonly string LockPath = Path.Combine(Path.GetTempPath(), "pooledhttp", "build.lock");

    /// <summary>Longer than the slowest build the workshop starts (the kit from nothing on a 2-core machine).</summary>
    public static readonly TimeSpan Timeout = TimeSpan.FromMinutes(10);

    /// <summary>
    /// Takes the lock for <paramref name="build"/> (what is built, in words), waiting up to <paramref name="timeout"/>;
    /// <paramref name="waiting"/> hears once, with the holder's name, that another build holds it.
    /// </summary>
    /// <exception cref="TimeoutException">Another build held the lock for longer; the message names it.</exception>
    public static LockFile Take(string build, TimeSpan timeout, Action<string>? waiting = null)
        => LockFile.Take(LockPath, "build", build, timeout, waiting);
}
