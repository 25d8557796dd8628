extern alias runner;

using System.Text.Json.Nodes;

namespace PooledHttp.Tests.Runner;

/// <summary>
/// The runner counts an exercise done exactly when the kit wrote <c>"done": true</c> (<c>ExerciseResult.Done</c>): a
/// passed check whose goal is not met is not done, as <c>tools/RunExercise</c> says too.
/// </summary>
public class ExerciseVerdictTests
{
    [Fact]
    public void A_passed_check_that_misses_its_goal_is_listed_as_such_and_not_counted_done()
    {
        string output = Path.Combine(Path.GetTempPath(), "pooledhttp-tests", Guid.NewGuid().ToString("N"));
        string path = runner::NotebookRunner.NotebookSummary.PathOf(output, "07-under-load");
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        var summary = new JsonObject
        {
            ["notebook"] = "07-under-load",
            ["exercises"] = new JsonArray(
                Verdict("E07", "Passed", goalMet: false, done: false),
                Verdict("E04", "Passed", goalMet: true, done: true),
                Verdict("E01", "NotDone", goalMet: null, done: false)),
        };
        File.WriteAllText(path, summary.ToJsonString());

        var written = new StringWriter();
        runner::NotebookRunner.NotebookSummary.PrintExercises([runner::NotebookRunner.NotebookSummary.Read(output, "07-under-load")], written);

        string text = written.ToString();
        Assert.Contains("E07  passed, goal not met yet", text, StringComparison.Ordinal);
        Assert.Contains("E04  passed, goal met", text, StringComparison.Ordinal);
        Assert.Contains("E01  exercise not done yet", text, StringComparison.Ordinal);
        Assert.Contains("1 of 3 exercise(s) done.", text, StringComparison.Ordinal);
    }

    private static JsonObject Verdict(string id, string status, bool? goalMet, bool done)
        => new() { ["id"] = id, ["file"] = $"exercises/{id}.cs", ["status"] = status, ["message"] = "-", ["goalMet"] = goalMet, ["done"] = done };
}
