namespace Preflight;

/// <summary>The one line the pre-flight ends with, and its exit code, from every step's result.</summary>
internal static class Verdict
{
    /// <summary>Ready when every step passed or only warned: a warning names something the chapters can do without.</summary>
    public static bool IsReady(IReadOnlyList<StepResult> results)
    {
        ArgumentNullException.ThrowIfNull(results);
        return results.Count > 0 && results.All(r => r.Outcome is StepOutcome.Passed or StepOutcome.Warning);
    }

    /// <summary>"Ready.", or "Not ready: " and each failed step's fix, in step order (a skipped step waits on a failed one, so it adds none).</summary>
    public static string Line(IReadOnlyList<StepResult> results)
    {
        if (IsReady(results))
        {
            return "Ready.";
        }

        string[] fixes = [.. results.Where(r => r.Outcome == StepOutcome.Failed).Select(r => $"{r.Step}: {r.Detail}")];
        return fixes.Length == 0
            ? "Not ready: no step ran to the end."
            : $"Not ready: {string.Join("; ", fixes)}";
    }

    /// <summary>0 when ready, 1 otherwise.</summary>
    public static int ExitCode(IReadOnlyList<StepResult> results) => IsReady(results) ? 0 : 1;
}
