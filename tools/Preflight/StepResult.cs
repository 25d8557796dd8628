using System.Globalization;

namespace Preflight;

/// <summary>One step's end: its name, outcome and time, and a sentence (what it did, or what to fix).</summary>
/// <param name="Step">What the step checks, e.g. "chapter 00".</param>
/// <param name="Outcome">How it ended.</param>
/// <param name="Time">How long it took.</param>
/// <param name="Detail">What it did when it passed; what to fix when it did not.</param>
internal sealed record StepResult(string Step, StepOutcome Outcome, TimeSpan Time, string Detail)
{
    /// <summary>The step's line in the report, e.g. "  ok        12.3 s  build: the runner (Release)".</summary>
    public string Line
    {
        get
        {
            string label = Outcome switch
            {
                StepOutcome.Passed => "ok",
                StepOutcome.Warning => "warning",
                StepOutcome.Failed => "FAILED",
                _ => "skipped",
            };
            return string.Create(CultureInfo.InvariantCulture, $"  {label,-8} {Time.TotalSeconds,6:0.0} s  {Step}: {Detail}");
        }
    }
}
