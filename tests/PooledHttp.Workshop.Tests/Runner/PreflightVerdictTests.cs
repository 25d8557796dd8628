extern alias preflight;

using preflight::Preflight;

namespace PooledHttp.Tests.Runner;

/// <summary>The pre-flight's last line: "Ready." only when nothing failed, otherwise every fix, in step order.</summary>
public class PreflightVerdictTests
{
    private static StepResult Step(string step, StepOutcome outcome, string detail = "done")
        => new(step, outcome, TimeSpan.FromSeconds(12.34), detail);

    [Fact]
    public void Every_step_passed_is_ready()
    {
        StepResult[] results = [Step("build", StepOutcome.Passed), Step("chapter 00", StepOutcome.Passed), Step("runtimes", StepOutcome.Passed), Step("browser", StepOutcome.Passed)];

        Assert.Equal("Ready.", Verdict.Line(results));
        Assert.Equal(0, Verdict.ExitCode(results));
    }

    [Fact]
    public void A_missing_browser_warns_but_stays_ready()
    {
        StepResult browser = Step("browser", StepOutcome.Warning, "No Chrome, Chromium or Edge was found.");
        StepResult[] results = [Step("build", StepOutcome.Passed), browser];

        Assert.Equal("Ready.", Verdict.Line(results));
        Assert.Equal(0, Verdict.ExitCode(results));
        Assert.StartsWith("  warning", browser.Line, StringComparison.Ordinal);
        Assert.Contains("No Chrome, Chromium or Edge was found.", browser.Line, StringComparison.Ordinal);
    }

    [Fact]
    public void Each_failure_is_named_with_its_fix_in_step_order()
    {
        StepResult[] results =
        [
            Step("build", StepOutcome.Passed),
            Step("chapter 00", StepOutcome.Failed, "port in use"),
            Step("runtimes", StepOutcome.Failed, "NuGet unreachable"),
            Step("browser", StepOutcome.Warning, "none found"),
        ];

        Assert.Equal("Not ready: chapter 00: port in use; runtimes: NuGet unreachable", Verdict.Line(results));
        Assert.Equal(1, Verdict.ExitCode(results));
    }

    [Fact]
    public void A_step_skipped_after_a_failure_adds_no_fix_of_its_own()
    {
        StepResult[] results = [Step("build", StepOutcome.Failed, "fix the errors above"), Step("chapter 00", StepOutcome.Skipped, "not run, the build failed")];

        Assert.Equal("Not ready: build: fix the errors above", Verdict.Line(results));
        Assert.Equal(1, Verdict.ExitCode(results));
    }

    [Fact]
    public void Nothing_checked_is_not_ready()
    {
        // An empty list would otherwise pass "every step passed" vacuously.
        Assert.StartsWith("Not ready: ", Verdict.Line([]), StringComparison.Ordinal);
        Assert.Equal(1, Verdict.ExitCode([]));
    }

    [Fact]
    public void A_step_line_shows_its_outcome_time_and_detail()
    {
        Assert.Equal("  FAILED     12.3 s  runtimes: NuGet unreachable", Step("runtimes", StepOutcome.Failed, "NuGet unreachable").Line);
    }

    [Fact]
    public void A_missing_browser_is_one_short_sentence_not_every_place_looked_in()
    {
        string looked = string.Join(", ", Enumerable.Range(1, 66).Select(i => $"'/opt/place{i}/chromium'"));
        string message = $"No Chrome, Chromium or Edge was found (looked for {looked}). Install Chromium: sudo apt-get install chromium.";

        string shown = Steps.WithoutPlacesLookedIn(message);

        Assert.Equal("No Chrome, Chromium or Edge was found. Install Chromium: sudo apt-get install chromium.", shown);
    }
}
