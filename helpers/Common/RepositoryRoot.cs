namespace PooledHttp;

/// <summary>
/// The workshop repository's root, found one way everywhere: the first folder holding <c>PooledHttp.slnx</c>
/// above the current directory (a shell or an editor opened in the clone), else above the running
/// assembly (a test, or the runner started by path). One source file, compiled into the projects that share no
/// assembly (docs/architecture.md, "shared source", lists them).
/// </summary>
internal static class RepositoryRoot
{
    /// <summary>The file that marks the root.</summary>
    public const string Marker = "PooledHttp.slnx";

    /// <summary>The root's full path.</summary>
    /// <exception cref="InvalidOperationException">Neither starting point is inside a clone of the workshop.</exception>
    public static string Find()
    {
        foreach (string start in new[] { Environment.CurrentDirectory, AppContext.BaseDirectory })
        {
            for (var dir = new DirectoryInfo(start); dir is not null; dir = dir.Parent)
            {
                if (File.Exists(Path.Combine(dir.FullName, Marker)))
                {
                    return dir.FullName;
                }
            }
        }

        throw new InvalidOperationException($"{Marker} was not found above {Environment.CurrentDirectory} or {AppContext.BaseDirectory}: run this from inside a clone of the workshop repository.");
    }
}
