namespace PooledHttp.Tests.Support;

/// <summary>The repository the tests were built from: the first folder above them that holds PooledHttp.slnx.</summary>
internal static class RepositoryRoot
{
    public static string Find()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "PooledHttp.slnx")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException("PooledHttp.slnx not found above " + AppContext.BaseDirectory);
    }
}
