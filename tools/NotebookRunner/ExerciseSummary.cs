using System.Text.Json;

namespace NotebookRunner;

/// <summary>
/// The exercises' verdicts of this run, as the notebooks' <c>ExerciseNN.Run</c> calls recorded them. An
/// exercise nobody has done yet is reported as such: it is the learner's to do, not a broken notebook.
/// </summary>
internal static class ExerciseSummary
{
    public static void Print(string folder, TextWriter output)
    {
        if (!Directory.Exists(folder))
        {
            return;
        }

        List<Verdict> verdicts = [.. Directory.GetFiles(folder, "*.json").Order(StringComparer.Ordinal)
            .Select(file => JsonSerializer.Deserialize<Verdict>(File.ReadAllText(file))!)];
        if (verdicts.Count == 0)
        {
            return;
        }

        output.WriteLine();
        output.WriteLine("Exercises:");
        foreach (Verdict verdict in verdicts)
        {
            output.WriteLine(verdict.Status switch
            {
                "Passed" => $"  {verdict.Id}  passed",
                "NotDone" => $"  {verdict.Id}  exercise not done yet: {verdict.File}",
                _ => $"  {verdict.Id}  check failed: {verdict.Message.Split('\n')[0].Trim()}",
            });
        }

        output.WriteLine($"{verdicts.Count(v => v.Status == "Passed")} of {verdicts.Count} exercise(s) done.");
    }

    private sealed record Verdict(string Id, string File, string Status, string Message);
}
