// dotnet run --project tools/Preflight -c Release
// The check each attendee runs the day before a workshop, from the repository root: it builds the runner and the
// exercises project, runs chapter 00 on the quick profile, fetches .NET 8 and 9 and looks for a browser, a line when
// each step starts and one with its time when it ends,
// and ends with "Ready." (exit code 0) or "Not ready: " and what to fix (exit code 1).
using Preflight;

string root = PooledHttp.RepositoryRoot.Find();
Console.WriteLine("Pre-flight: building and running chapter 00 while .NET 8 and 9 are fetched (a few minutes).");

// The fetch is mostly download, so it runs beside the build and the chapter; chapter 00 compares no runtimes.
Task<StepResult> runtimes = Steps.FetchRuntimesAsync();
StepResult browser = await Steps.CheckBrowserAsync();
StepResult build = await Steps.BuildAsync(root);
StepResult chapter = build.Outcome == StepOutcome.Passed
    ? await Steps.RunChapterAsync(root)
    : Steps.Skipped("chapter 00", "not run, the build failed");
StepResult[] results = [build, chapter, await runtimes, browser];

Console.WriteLine(Verdict.Line(results));
return Verdict.ExitCode(results);
