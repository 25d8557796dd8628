using System.Diagnostics;
using System.Globalization;

namespace PooledHttp.Workshop.Notebooks;

/// <summary>
/// The one lock every build of the workshop's projects takes: the kit for the notebooks
/// (<c>notebooks/workshop.csx</c>, which carries a copy of this rule), the exercises, the load probe and
/// BenchmarkDotNet's generated projects. They all write the same <c>helpers/*/obj</c> folders, and two
/// MSBuilds in one <c>obj</c> folder break each other's output. Machine-wide, so two kernels, or a kernel and
/// a test run, wait for each other. Fetching a runtime into <c>artifacts/dotnet</c> takes a lock of its own
/// (<see cref="TakeForRuntimes"/>), so a fetch never waits for a build nor a build for a fetch.
/// </summary>
internal sealed class BuildLock : IDisposable
{
    /// <summary>The lock file: held open, unshared, for as long as a build runs.</summary>
    public static readonly string LockPath = Path.Combine(Path.GetTempPath(), "pooledhttp", "build.lock");

    /// <summary>The lock file of fetching runtimes: two processes fetching .NET 9 at once deleted each other's copy.</summary>
    public static readonly string RuntimesLockPath = Path.Combine(Path.GetTempPath(), "pooledhttp", "runtimes.lock");

    /// <summary>Longer than the slowest build the workshop starts (the kit from nothing on a 2-core machine).</summary>
    public static readonly TimeSpan Timeout = TimeSpan.FromMinutes(10);

    private static readonly TimeSpan Retry = TimeSpan.FromMilliseconds(200);

    private readonly FileStream _held;
    private readonly string _holderPath;

    private BuildLock(FileStream held, string holderPath) => (_held, _holderPath) = (held, holderPath);

    /// <summary>
    /// Takes the lock for <paramref name="build"/> (what is built, in words), waiting up to <paramref name="timeout"/>;
    /// <paramref name="waiting"/> hears once, with the holder's name, that another build holds it.
    /// </summary>
    /// <exception cref="TimeoutException">Another build held the lock for longer; the message names it.</exception>
    public static BuildLock Take(string build, TimeSpan timeout, Action<string>? waiting = null)
        => Take(LockPath, "build", build, timeout, waiting);

    /// <summary>Takes the lock of fetching runtimes, as <see cref="Take(string, TimeSpan, Action{string}?)"/> takes the build lock.</summary>
    /// <exception cref="TimeoutException">Another fetch held the lock for longer; the message names it.</exception>
    public static BuildLock TakeForRuntimes(string fetch, TimeSpan timeout, Action<string>? waiting = null)
        => Take(RuntimesLockPath, "fetch", fetch, timeout, waiting);

    // kind: what holds this lock, in one word ("build", "fetch"), for the messages.
    private static BuildLock Take(string lockPath, string kind, string build, TimeSpan timeout, Action<string>? waiting)
    {
        // One line the holder writes once it holds the lock, so whoever waits can say what for.
        string holderPath = lockPath + ".holder";
        Directory.CreateDirectory(Path.GetDirectoryName(lockPath)!);
        var waited = Stopwatch.StartNew();
        bool told = false;
        while (true)
        {
            try
            {
                var held = new FileStream(lockPath, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
                File.WriteAllText(holderPath, string.Create(CultureInfo.InvariantCulture, $"{build} (process {Environment.ProcessId}, since {DateTime.Now:HH:mm:ss})"));
                return new BuildLock(held, holderPath);
            }
            catch (IOException) when (waited.Elapsed < timeout)
            {
                if (!told)
                {
                    waiting?.Invoke($"{build}: waiting for another {kind} to finish: {Holder(holderPath)}");
                    told = true;
                }

                Thread.Sleep(Retry);
            }
            catch (IOException)
            {
                throw new TimeoutException($"{build}: another {kind} held {lockPath} for longer than {timeout.TotalSeconds:0} s: {Holder(holderPath)}. If no {kind} is running, delete that file.");
            }
        }
    }

    /// <summary>What the holder wrote, or a sentence saying it wrote nothing (a build older than this rule, or one that just started).</summary>
    private static string Holder(string holderPath)
    {
        try
        {
            return File.Exists(holderPath) ? File.ReadAllText(holderPath).Trim() : "a build that did not say what it builds";
        }
        catch (IOException)
        {
            return "a build that did not say what it builds";
        }
    }

    /// <inheritdoc />
    public void Dispose()
    {
        File.Delete(_holderPath);
        _held.Dispose();
    }
}
