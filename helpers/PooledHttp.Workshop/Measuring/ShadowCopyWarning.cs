namespace PooledHttp.Workshop.Measuring;

/// <summary>
/// BenchmarkDotNet's warning that the assembly holding the benchmarks sits under the temp folder, which it
/// prints whenever the repository is cloned there. It is advice for xUnit's shadow copies, which the kit never
/// makes, and it does not stop the run; a learner reading it would hunt for an xUnit setting that is not there.
/// </summary>
internal static class ShadowCopyWarning
{
    // The message of ShadowCopyValidator, a non-critical ValidationError, as BenchmarkDotNet 0.15.8 words it:
    // https://github.com/dotnet/BenchmarkDotNet/blob/v0.15.8/src/BenchmarkDotNet/Validators/ShadowCopyValidator.cs
    private const string Start = "Assembly ";
    private const string End = " is located in temp. If you are running benchmarks from xUnit you need to disable shadow copy. It's not supported by design.";

    /// <summary>
    /// Whether <paramref name="text"/> is that warning: the validation message alone, or the log line
    /// BenchmarkDotNet prints it as (<c>//    * </c> before the message, as an error).
    /// </summary>
    public static bool Matches(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        string message = text.TrimStart('/', ' ', '*').TrimEnd('\r', '\n');
        return message.Length > Start.Length + End.Length
            && message.StartsWith(Start, StringComparison.Ordinal)
            && message.EndsWith(End, StringComparison.Ordinal);
    }
}
