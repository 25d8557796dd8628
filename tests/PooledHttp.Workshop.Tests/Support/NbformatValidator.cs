namespace PooledHttp.Tests.Support;

/// <summary>
/// Validates a notebook against the nbformat 4 schema with the reference implementation, Jupyter's own
/// <c>nbformat</c> Python package (Debian: python3-nbformat, which .ci/run installs).
/// </summary>
internal static class NbformatValidator
{
    private const string Script = "import sys, nbformat\nnb = nbformat.read(sys.argv[1], as_version=nbformat.NO_CONVERT)\nnbformat.validate(nb)\nprint('valid nbformat', nb.nbformat, nb.nbformat_minor)\n";

    public static async Task AssertValidAsync(string path)
    {
        // Debian's interpreter, where python3-nbformat installs; a python3 earlier on PATH (pyenv) lacks it.
        string python = File.Exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
        (int exit, string output, string error) = await ChildProcess.RunAsync(python, ["-c", Script, path], TimeSpan.FromMinutes(1));
        Assert.False(error.Contains("No module named 'nbformat'", StringComparison.Ordinal), "python3-nbformat is not installed (apt-get install python3-nbformat; .ci/run does it)");
        Assert.True(exit == 0, $"{path} is not valid nbformat 4:\n{error}");
        Assert.StartsWith("valid nbformat 4", output, StringComparison.Ordinal);
    }
}
