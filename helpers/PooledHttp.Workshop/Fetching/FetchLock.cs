using PooledHttp.Workshop.Building;

namespace PooledHttp.Workshop.Fetching;

/// <summary>
/// The lock fetching runtimes into <c>artifacts/dotnet</c> takes (<see cref="PrivateDotnet"/>): two processes
/// fetching .NET 9 at once deleted each other's copy. Apart from the <see cref="BuildLock"/>, so a fetch never
/// waits for a build nor a build for a fetch.
/// </summary>
internal static class FetchLock
{
    /// <summary>The lock file: held open, unshared, for as long as a fetch runs.</summary>
    public static readonly string LockPath = Path.Combine(Path.GetTempPath(), "pooledhttp", "fetch.lock");

    /// <summary>How long a fetch may wait for another: the ten minutes a build may wait for a build.</summary>
    public static readonly TimeSpan Timeout = BuildLock.Timeout;

    /// <summary>Takes the lock for <paramref name="fetch"/> (what is fetched, in words), as <see cref="BuildLock.Take"/> takes the build lock.</summary>
    /// <exception cref="TimeoutException">Another fetch held the lock for longer; the message names it.</exception>
    public static LockFile Take(string fetch, TimeSpan timeout, Action<string>? waiting = null)
        => LockFile.Take(LockPath, "fetch", fetch, timeout, waiting);
}
