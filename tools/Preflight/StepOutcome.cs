namespace Preflight;

/// <summary>How one pre-flight step ended.</summary>
internal enum StepOutcome
{
    /// <summary>Done, nothing to fix.</summary>
    Passed,

    /// <summary>Something is missing that the chapters can do without (the browser): said, but still ready.</summary>
    Warning,

    /// <summary>The step failed: the machine is not ready until its fix is applied.</summary>
    Failed,

    /// <summary>Not run, because a step it needs failed.</summary>
    Skipped,
}
