using System.Diagnostics;
using System.Globalization;

namespace PooledHttp.Workshop.Building;

/// <summary>
/// A machine-wide lock: a file held open, unshared, for as long as its holder works, so two kernels, or a kernel
/// and a test run, wait for each other. The holder writes what it does beside it (<c>.holder</c>), so whoever
/// waits can say what for, and one that waits too long fails with that name and the file to delete.
/// <see cref="BuildLock"/> and <see cref="Fetching.FetchLock"/> are the two the workshop takes.
/// </summary>
internal sealed class LockFile : IDisposable
{
    private static readonly TimeSpan Retry = TimeSpan.FromMilliseconds(200);

    private readonly FileStream _held;
    private readonly string _holderPath;

    private LockFile(FileStream held, string holderPath) => (_held, _holderPath) = (held, holderPath);

    /// <summary>
    /// Takes the lock at <paramref name="lockPath"/> for <paramref name="work"/> (in words), waiting up to
    /// <paramref name="timeout"/>; <paramref name="waiting"/> hears once, with the holder's name, that another holds it.
    /// </summary>
    /// <param name="lockPath">The lock file.</param>
    /// <param name="kind">What holds this lock, in one word ("build", "fetch"), for the messages.</param>
    /// <param name="work">What the taker does, in words.</param>
    /// <param name="timeout">How long to wait.</param>
    /// <param name="waiting">Told once, when the lock is held by another.</param>
    /// <exception cref="TimeoutException">Another held the lock for longer; the message names it.</exception>
    public static LockFile Take(string lockPath, string kind, string work, TimeSpan timeout, Action<string>? waiting)
    {
        string holderPath = lockPath + ".holder";
        Directory.CreateDirectory(Path.GetDirectoryName(lockPath)!);
        var waited = Stopwatch.StartNew();
        bool told = false;
        while (true)
        {
            try
            {
                var held = new FileStream(lockPath, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
                File.WriteAllText(holderPath, string.Create(CultureInfo.InvariantCulture, $"{work} in {PooledHttp.Workshop.Notebooks.WorkshopPaths.Root} (process {Environment.ProcessId}, since {DateTime.Now:HH:mm:ss})"));
                return new LockFile(held, holderPath);
            }
            catch (IOException) when (waited.Elapsed < timeout)
            {
                if (!told)
                {
                    waiting?.Invoke($"{work}: waiting for another {kind} to finish: {Holder(holderPath, kind)}");
                    told = true;
                }

                Thread.Sleep(Retry);
            }
            catch (IOException)
            {
                throw new TimeoutException($"{work}: another {kind} held {lockPath} for longer than {timeout.TotalSeconds:0} s: {Holder(holderPath, kind)}. If no {kind} is running, delete that file.");
            }
        }
    }

    /// <inheritdoc />
    public void Dispose()
    {
        File.Delete(_holderPath);
        _held.Dispose();
    }

    /// <summary>What the holder wrote, or a sentence saying it wrote nothing (one older than this rule, or one that just started).</summary>
    private static string Holder(string holderPath, string kind)
    {
        string unnamed = $"a {kind} that did not say what it is for";
        try
        {
            return File.Exists(holderPath) ? File.ReadAllText(holderPath).Trim() : unnamed;
        }
        catch (IOException)
        {
            return unnamed;
        }
    }
}
