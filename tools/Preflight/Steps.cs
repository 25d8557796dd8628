using System.ComponentModel;
using System.Diagnostics;
using PooledHttp;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Fetching;
using PooledHttp.Workshop.Measuring;

namespace Preflight;

/// <summary>
/// The pre-flight's steps. Each is timed, prints a line when it starts and one when it ends, and turns a failure into a sentence
/// saying what to fix; a failing child process also has the end of its output printed above that line.
/// </summary>
internal static partial class Steps
{
    /// <summary>Where chapter 00's executed notebook and report go, apart from a learner's own run in artifacts/.</summary>
    public const string OutputFolder = "artifacts/preflight";

    private const string Runner = "tools/NotebookRunner";
    private const string Chapter = "notebooks/00-getting-started.ipynb";
    private const string Exercises = "exercises/PooledHttp.Exercises.csproj";

    /// <summary>Lines of a failing child's output worth reading: its errors, or the runner's summary.</summary>
    private const int TailLines = 20;

    private static readonly TimeSpan BuildTimeout = TimeSpan.FromMinutes(10);
    private static readonly TimeSpan ChapterTimeout = TimeSpan.FromMinutes(15);

    /// <summary>
    /// Builds the runner and the learner's exercises project in Release (the kit is built already: it is part of this
    /// tool), each project's line shown as it is built, so the first exercise cell of the day finds its build done.
    /// </summary>
    public static Task<StepResult> BuildAsync(string root) => Timed("build", async () =>
    {
        foreach (string project in new[] { $"{Runner}/NotebookRunner.csproj", Exercises })
        {
            ChildResult built = await ChildProcess.RunAsync("dotnet", ["build", project, "-c", "Release", "-nologo", "-v:m", "-clp:NoSummary"], BuildTimeout, workingDirectory: root, echo: true);
            if (built.ExitCode != 0)
            {
                return Failed(built, $"`dotnet build {project} -c Release` failed (its errors are above); fix them, or `git status` for a local change that broke it");
            }
        }

        return (StepOutcome.Passed, "the runner, the kit and the exercises project, in Release");
    });

    /// <summary>Runs chapter 00 with the quick profile through the runner just built, as a learner would.</summary>
    public static Task<StepResult> RunChapterAsync(string root) => Timed("chapter 00", async () =>
    {
        // Its cells and progress lines pass through as they come: a minute of measuring is not a minute of silence.
        ChildResult ran = await ChildProcess.RunAsync("dotnet", ["run", "--project", Runner, "-c", "Release", "--no-build", "--", Chapter, "--quick", "--out", OutputFolder], ChapterTimeout, workingDirectory: root, echo: true);
        return ran.ExitCode == 0
            ? (StepOutcome.Passed, $"ran on the quick profile; its report is {OutputFolder}/report-00.html")
            : Failed(ran, $"{LastLine(ran.Error) ?? $"the runner exited with code {ran.ExitCode}"} (the runner's output is above; docs/troubleshooting.md covers ports, proxies and locked files)");
    });

    /// <summary>Fetches .NET 8 and 9 into artifacts/dotnet with the chapters' own code, so chapters 02 and 08 need no download on the day.</summary>
    public static Task<StepResult> FetchRuntimesAsync() => Timed("runtimes", async () =>
    {
        PrivateDotnet dotnet = await Task.Run(() => Runtimes.Fetch());
        string held = string.Join(", ", dotnet.Versions.OrderBy(v => v.Key).Select(v => $".NET {v.Value}"));
        return dotnet.Problems.Count == 0
            ? (StepOutcome.Passed, $"artifacts/dotnet holds {held}")
            : (StepOutcome.Failed, $"{string.Join(" ", dotnet.Problems)} Check that your NuGet source is reachable (`dotnet nuget list source`), then run this again");
    });

    /// <summary>Looks for the browser the picture tools and chart tests use: the chapters do without it, so its absence only warns.</summary>
    public static Task<StepResult> CheckBrowserAsync() => Timed("browser", () =>
    {
        BrowserLookup lookup = ChromiumLocator.Locate();
        return Task.FromResult(lookup.Found
            ? (StepOutcome.Passed, lookup.Message)
            : (StepOutcome.Warning, $"{WithoutPlacesLookedIn(lookup.Message)} Only the picture tools and the chart tests need one; the chapters do not"));
    });

    /// <summary>The lookup's sentence without the list of every place it looked (dozens of paths on one line).</summary>
    internal static string WithoutPlacesLookedIn(string message) => PlacesLookedIn().Replace(message, string.Empty);

    [System.Text.RegularExpressions.GeneratedRegex(@"\s*\(looked for [^)]*\)")]
    private static partial System.Text.RegularExpressions.Regex PlacesLookedIn();

    /// <summary>A step not run because <paramref name="reason"/>.</summary>
    public static StepResult Skipped(string step, string reason) => Print(new StepResult(step, StepOutcome.Skipped, TimeSpan.Zero, reason));

    private static async Task<StepResult> Timed(string step, Func<Task<(StepOutcome Outcome, string Detail)>> run)
    {
        Console.WriteLine($"  {"started",-8} {string.Empty,6}    {step}");
        var clock = Stopwatch.StartNew();
        (StepOutcome outcome, string detail) = await CatchAsync(run);
        return Print(new StepResult(step, outcome, clock.Elapsed, detail));
    }

    /// <summary>A child that could not start, or ran past its time, fails its step with the reason rather than ending the pre-flight.</summary>
    private static async Task<(StepOutcome, string)> CatchAsync(Func<Task<(StepOutcome, string)>> run)
    {
        try
        {
            return await run();
        }
        catch (Exception e) when (e is TimeoutException or InvalidOperationException or Win32Exception or IOException or UnauthorizedAccessException)
        {
            Console.Error.WriteLine(e.Message);
            return (StepOutcome.Failed, $"{e.GetType().Name}: {LastLine(e.Message)} (details above)");
        }
    }

    private static (StepOutcome, string) Failed(ChildResult child, string fix)
    {
        string[] lines = (child.Output + child.Error).Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        foreach (string line in lines.TakeLast(TailLines))
        {
            Console.Error.WriteLine($"    | {line}");
        }

        return (StepOutcome.Failed, fix);
    }

    private static string? LastLine(string text) => text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).LastOrDefault();

    private static StepResult Print(StepResult result)
    {
        Console.WriteLine(result.Line);
        return result;
    }
}
