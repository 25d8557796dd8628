using PooledHttp.Workshop.Exercising;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Notebooks;
using PooledHttp.Workshop.Server;
using PooledHttp.Tests.Support;
using Xunit.Abstractions;
using PooledHttp.Workshop.Checks;

namespace PooledHttp.Tests.Exercising;

/// <summary>
/// The exercises through the call the notebooks make (<c>ExerciseNN.Run</c>): every stub is reported as
/// not done, every worked solution passes its check and meets its goal, and an edit between two runs in
/// one process is what the second run checks and measures. These build and run BenchmarkDotNet, so they
/// run alone.
/// </summary>
[Collection(SerialTests.Name)]
public class ExerciseRunTests(ITestOutputHelper output)
{
    private static string Root => Repository.RepositoryTests.FindRoot();

    [Fact]
    public async Task Every_stub_is_reported_as_not_done_yet_and_nothing_is_measured()
    {
        using var scope = new Scope(project: null);
        IReadOnlyList<ExerciseResult> results = await RunAllAsync();
        Assert.Equal(Exercise.All.Select(e => e.Id), results.Select(r => r.Exercise.Id));
        Assert.All(results, result =>
        {
            Assert.True(result.Status == ExerciseStatus.NotDone, $"{result.Exercise.Id}: {result.Status}: {result.Check.Message}");
            Assert.Contains(result.Exercise.File, result.Check.Message, StringComparison.Ordinal);
            Assert.Null(result.Measured);
            Assert.Contains("Nothing to compare yet", result.Compare(1000), StringComparison.Ordinal);
            Assert.Contains("not done yet", result.ToHtml(), StringComparison.Ordinal);
            // The verdict the headless runner sums up, in the notebook's summary, by name.
            var verdicts = (System.Text.Json.Nodes.JsonArray)System.Text.Json.Nodes.JsonNode.Parse(File.ReadAllText(RunSummary.PathOf(result.Exercise.Notebook)))!["exercises"]!;
            Assert.False(result.Done);
            Assert.Contains(verdicts, v => (string?)v!["id"] == result.Exercise.Id && (string?)v["status"] == "NotDone" && (bool?)v["done"] == false);
        });
    }

    [Fact]
    public async Task Every_solution_passes_its_check_is_measured_and_meets_its_goal()
    {
        // The default profile, as a learner measures: the quick one's single-operation iterations blur a 16 MiB download's few kilobytes.
        using var scope = new Scope(project: Path.Combine(Root, "tests", "ExerciseSolutions", "PooledHttp.Exercises.Solutions.csproj"), profile: "default");
        IReadOnlyList<ExerciseResult> results = await RunAllAsync();
        foreach (ExerciseResult result in results)
        {
            output.WriteLine(result.ToString());
            output.WriteLine(string.Empty);
        }

        Assert.All(results, result =>
        {
            Assert.True(result.Status == ExerciseStatus.Passed, $"{result.Exercise.Id}: {result.Check.Message}");
            Assert.NotNull(result.Measured);
            Assert.All(result.Measured!, row => Assert.Equal("Yours", row.Strategy));
            Assert.All(result.Measured!, row => Assert.Equal(result.Exercise.Notebook, row.Notebook));
            Assert.True(result.Exercise.Goal is null || result.GoalMet == true, $"{result.Exercise.Id} missed its goal ({result.Exercise.Goal}): {result.Measured}");
            Assert.Contains("You predicted", result.Compare(1000), StringComparison.Ordinal);
            // One definition of done: the one the result gives is the one the runner's summary counts.
            Assert.True(result.Done);
            var verdicts = (System.Text.Json.Nodes.JsonArray)System.Text.Json.Nodes.JsonNode.Parse(File.ReadAllText(RunSummary.PathOf(result.Exercise.Notebook)))!["exercises"]!;
            Assert.Contains(verdicts, v => (string?)v!["id"] == result.Exercise.Id && (bool?)v["done"] == true && (bool?)v["goalMet"] == result.GoalMet);
        });

        // The values the calls passed are the cases measured: E01 its answer and one byte less, E03 its books, the rest a body size.
        List<MeasuredRow> e01 = [.. results.Single(r => r.Exercise.Id == "E01").Measured!];
        Assert.Equal(2, e01.Count);
        Assert.Equal(1, e01.Max(r => r.PayloadBytes) - e01.Min(r => r.PayloadBytes));
        Assert.All(results.Where(r => r.Exercise.Id is "E03" or "E09"), r => Assert.Equal("Books=250", r.Measured!.Single().Variant));
        Assert.All(results.Where(r => r.Exercise.Id is "E02" or "E04" or "E05" or "E07").SelectMany(r => r.Measured!), row => Assert.NotNull(row.PayloadBytes));

        // The rows went where the chapter's own go, so the chapter's results file holds them too.
        Assert.All(results, result => Assert.Contains(ResultsCsv.Read(Path.Combine(scope.Output, "results", result.Exercise.Notebook + ".csv")), row => row.Strategy == "Yours"));
    }

    [Fact]
    public void An_edit_between_two_runs_is_what_the_second_run_checks_and_measures()
    {
        // A copy of the exercises project with only exercise 01 in it, edited between runs as a learner would.
        string folder = CopyOfTheExercisesProject("exercise-edit-test");
        string file = Path.Combine(folder, "E01_LargeObjectThreshold.cs");
        void Answer(string value) => File.WriteAllText(file, $"namespace PooledHttp.Exercises;\npublic static class E01_LargeObjectThreshold\n{{\n    public static int SmallestGen2Array => {value};\n}}\n");

        using var scope = new Scope(project: Path.Combine(folder, "EditedExercises.csproj"));
        Answer("0");
        Assert.Equal(ExerciseStatus.NotDone, Exercise01.Run().Status);

        Answer("1_000");
        ExerciseResult tooSmall = Exercise01.Run();
        Assert.Equal(ExerciseStatus.Failed, tooSmall.Status);
        Assert.Contains("new byte[1,000] is born in Gen0", tooSmall.Check.Message, StringComparison.Ordinal);

        int smallest = Enumerable.Range(80_000, 10_000).First(n => GC.GetGeneration(new byte[n]) == 2);
        Answer(smallest.ToString(System.Globalization.CultureInfo.InvariantCulture));
        ExerciseResult right = Exercise01.Run();
        output.WriteLine(right.ToString());
        Assert.Equal(ExerciseStatus.Passed, right.Status);
        Assert.Equal([smallest - 1, smallest], right.Measured!.Select(r => r.PayloadBytes!.Value).Order());
        Assert.True(right.GoalMet, right.ToString());

        Answer("oops");
        ExerciseResult broken = Exercise01.Run();
        Assert.Equal(ExerciseStatus.Failed, broken.Status);
        Assert.Contains("does not compile", broken.Check.Message, StringComparison.Ordinal);
        Assert.Contains("E01_LargeObjectThreshold.cs", broken.Check.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_check_process_that_prints_its_verdict_and_lingers_is_stopped_and_its_verdict_kept()
    {
        // A Program.cs that prints the verdict, then never exits: what a thread left running would do.
        string folder = CopyOfTheExercisesProject("exercise-linger-test");
        File.WriteAllText(Path.Combine(folder, "Program.cs"), "int code = await PooledHttp.Workshop.Checks.ExerciseHost.RunAsync(args, typeof(Program).Assembly);\nThread.Sleep(Timeout.Infinite);\nreturn code;\n");
        File.WriteAllText(Path.Combine(folder, "E01_LargeObjectThreshold.cs"), "namespace PooledHttp.Exercises;\npublic static class E01_LargeObjectThreshold\n{\n    public static int SmallestGen2Array => 1_000;\n}\n");

        using var scope = new Scope(project: Path.Combine(folder, "EditedExercises.csproj"));
        ExerciseResult result = Exercise01.Run();
        output.WriteLine(result.ToString());

        // The verdict the process printed, not the timeout's: waiting for the exit would have ended in "did not finish".
        Assert.Equal(ExerciseStatus.Failed, result.Status);
        Assert.Contains("new byte[1,000] is born in Gen0", result.Check.Message, StringComparison.Ordinal);
    }

    /// <summary>A fresh copy of the exercises project's csproj and Program.cs under artifacts/, for a test to edit.</summary>
    private static string CopyOfTheExercisesProject(string name)
    {
        string folder = Path.Combine(Root, "artifacts", name);
        if (Directory.Exists(folder))
        {
            Directory.Delete(folder, recursive: true);
        }

        Directory.CreateDirectory(folder);
        File.WriteAllText(Path.Combine(folder, "EditedExercises.csproj"), File.ReadAllText(Path.Combine(Root, "exercises", "PooledHttp.Exercises.csproj"))
            .Replace("../helpers/", Path.Combine(Root, "helpers") + "/", StringComparison.Ordinal));
        File.Copy(Path.Combine(Root, "exercises", "Program.cs"), Path.Combine(folder, "Program.cs"));
        return folder;
    }

    private static async Task<IReadOnlyList<ExerciseResult>> RunAllAsync()
    {
        await using LocalServer server = LocalServer.Start();
        await using Http2Server h2 = await Http2Server.StartAsync();
        return
        [
            Exercise01.Run(),
            Exercise02.Run(server),
            Exercise03.Run(server),
            Exercise04.Run(server),
            Exercise05.Run(server),
            Exercise06.Run(h2),
            Exercise07.Run(server),
            Exercise09.Run(server),
        ];
    }

    /// <summary>Points the calls at a project and a temporary output folder, with a profile, and puts everything back after.</summary>
    private sealed class Scope : IDisposable
    {
        public Scope(string? project, string profile = "quick")
        {
            Output = Path.Combine(Path.GetTempPath(), "pooledhttp-tests", Guid.NewGuid().ToString("N"));
            new RunContext { Output = Output, ExercisesProject = project, Profile = profile }.SetForThisProcess();
        }

        public string Output { get; }

        public void Dispose()
        {
            Environment.SetEnvironmentVariable(RunContext.Variable, null);
        }
    }
}
