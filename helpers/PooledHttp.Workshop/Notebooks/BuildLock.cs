using System.Diagnostics;
using System.Globalization;

namespace PooledHttp.Workshop.Notebooks;

/// <summary>
/// The one lock every build of the workshop's projects takes: the kit for the notebooks
/// (<c>notebooks/workshop.csx</c>, which carries a copy of this rule), the exercises, the load probe and
/// BenchmarkDotNet's generated projects. They all write the same <c>helpers/*/obj</c> folders, and two
/// MSBuilds in one <c>obj</c> folder break each other's output. Machine-wide, so two kernels, or a kernel and
/// a test run, wait for each other.
/// </summary>
internal sealed class BuildLock : IDisposable
{
    /// <summary>The lock file: held open, unshared, for as long as a build runs.</summary>
    public static readonly string LockPath = Path.Combine(Path.GetTempPath(), "pooledhttp", "build.lock");

    /// <summary>One line the holder writes once it holds the lock, so whoever waits can say what for.</summary>
    public static readonly string HolderPath = LockPath + ".holder";

    /// <summary>Longer than the slowest build the workshop starts (the kit from nothing on a 2-core machine).</summary>
    public static readonly TimeSpan Timeout = TimeSpan.FromMinutes(10);

    private static readonly TimeSpan Retry = TimeSpan.FromMilliseconds(200);

    private readonly FileStream _held;

    private BuildLock(FileStream held) => _held = held;

    /// <summary>
    /// Takes the lock for <paramref name="build"/> (what is built, in words), waiting up to <paramref name="timeout"/>;
    /// <paramref name="waiting"/> hears once, with the holder's name, that another build holds it.
    /// </summary>
    /// <exception cref="TimeoutException">Another build held the lock for longer; the message names it.</exception>
    public static BuildLock Take(string build, TimeSpan timeout, Action<string>? waiting = null)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(LockPath)!);
        var waited = Stopwatch.StartNew();
        bool told = false;
        while (true)
        {
            try
            {
                var held = new FileStream(LockPath, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
                File.WriteAllText(HolderPath, string.Create(CultureInfo.InvariantCulture, $"{build} (process {Environment.ProcessId}, since {DateTime.Now:HH:mm:ss})"));
                return new BuildLock(held);
            }
            catch (IOException) when (waited.Elapsed < timeout)
            {
                if (!told)
                {
                    waiting?.Invoke($"{build}: waiting for another build to finish: {Holder()}");
                    told = true;
                }

                Thread.Sleep(Retry);
            }
            catch (IOException)
            {
                throw new TimeoutException($"{build}: another build held {LockPath} for longer than {timeout.TotalSeconds:0} s: {Holder()}. If no build is running, delete that file.");
            }
        }
    }

    /// <summary>What the holder wrote, or a sentence saying it wrote nothing (a build older than this rule, or one that just started).</summary>
    public static string Holder()
    {
        try
        {
            return File.Exists(HolderPath) ? File.ReadAllText(HolderPath).Trim() : "a build that did not say what it builds";
        }
        catch (IOException)
        {
            return "a build that did not say what it builds";
        }
    }

    /// <inheritdoc />
    public void Dispose()
    {
        File.Delete(HolderPath);
        _held.Dispose();
    }
}
