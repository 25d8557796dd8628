using System.Text.Json;
using System.Text.Json.Nodes;

namespace NotebookRunner;

/// <summary>
/// The contract between a notebook's process and this runner: <c>summaries/&lt;notebook&gt;.json</c> in the
/// output folder. The kit writes the rows the notebook measured and its exercises' verdicts (its
/// <c>RunSummary</c>); the notebook's process adds how the notebook ended; the runner reads every field by name.
/// </summary>
internal sealed class NotebookSummary
{
    /// <summary>The folder under the output folder, as the kit's <c>RunSummary.Folder</c>.</summary>
    public const string Folder = "summaries";

    private readonly JsonObject _json;

    private NotebookSummary(JsonObject json) => _json = json;

    /// <summary>The notebook's failure ("cell 12: ArgumentException: ..."), or null when every cell ran.</summary>
    public string? Failure => (string?)_json["failure"];

    /// <summary>Rows measured, each with its preformatted columns.</summary>
    public IEnumerable<JsonObject> Rows => (_json["rows"] as JsonArray ?? []).OfType<JsonObject>();

    /// <summary>Exercise verdicts: id, file, status (Passed, Failed, NotDone), message, goalMet, done.</summary>
    public IEnumerable<JsonObject> Exercises => (_json["exercises"] as JsonArray ?? []).OfType<JsonObject>();

    public static string PathOf(string output, string notebook) => Path.Combine(output, Folder, notebook + ".json");

    /// <summary>The summary of <paramref name="notebook"/>, or an empty one when its process wrote none.</summary>
    public static NotebookSummary Read(string output, string notebook)
    {
        string path = PathOf(output, notebook);
        return new NotebookSummary(File.Exists(path) ? JsonNode.Parse(File.ReadAllText(path))!.AsObject() : new JsonObject { ["notebook"] = notebook });
    }

    /// <summary>Starts a notebook's summary afresh, so a second run into the same folder does not add to the first.</summary>
    public static void Clear(string output, string notebook)
    {
        if (File.Exists(PathOf(output, notebook)))
        {
            File.Delete(PathOf(output, notebook));
        }
    }

    /// <summary>In the notebook's process: records how the notebook ended beside what the kit wrote.</summary>
    public static void Finish(string output, string notebook, string? failure)
    {
        NotebookSummary summary = Read(output, notebook);
        summary._json["failure"] = failure;
        Directory.CreateDirectory(Path.GetDirectoryName(PathOf(output, notebook))!);
        File.WriteAllText(PathOf(output, notebook), summary._json.ToJsonString(new JsonSerializerOptions { WriteIndented = true }));
    }

    /// <summary>Prints the rows of <paramref name="summaries"/>, one line per measured strategy.</summary>
    public static void PrintRows(IEnumerable<NotebookSummary> summaries, TextWriter writer)
    {
        string[] header = ["notebook", "strategy", "payload", "runtime", "allocated / op", "Gen0", "Gen2", "mean"];
        List<string[]> rows = [header, .. summaries.SelectMany(s => s.Rows.Select(r => new[]
        {
            (string?)s._json["notebook"] ?? "?", Field(r, "strategy"), Field(r, "payload"), Field(r, "runtime"), Field(r, "allocated"), Field(r, "gen0"), Field(r, "gen2"), Field(r, "mean"),
        }))];
        if (rows.Count == 1)
        {
            writer.WriteLine("No measurements were written in this run.");
            return;
        }

        int[] widths = Enumerable.Range(0, header.Length).Select(i => rows.Max(r => r[i].Length)).ToArray();
        writer.WriteLine();
        writer.WriteLine("Allocations per strategy (this run):");
        foreach (string[] row in rows)
        {
            writer.WriteLine(string.Join("  ", row.Select((c, i) => i < 2 ? c.PadRight(widths[i]) : c.PadLeft(widths[i]))));
        }
    }

    /// <summary>Prints the exercises' verdicts. An exercise nobody has done yet is the learner's to do, not a broken notebook.</summary>
    public static void PrintExercises(IEnumerable<NotebookSummary> summaries, TextWriter writer)
    {
        List<JsonObject> verdicts = [.. summaries.SelectMany(s => s.Exercises).OrderBy(v => Field(v, "id"), StringComparer.Ordinal)];
        if (verdicts.Count == 0)
        {
            return;
        }

        writer.WriteLine();
        writer.WriteLine("Exercises:");
        foreach (JsonObject verdict in verdicts)
        {
            writer.WriteLine(Field(verdict, "status") switch
            {
                "Passed" when Field(verdict, "goalMet") == "false" => $"  {Field(verdict, "id")}  passed, goal not met yet: {Field(verdict, "file")}",
                "Passed" => $"  {Field(verdict, "id")}  passed" + (Field(verdict, "goalMet") == "true" ? ", goal met" : string.Empty),
                "NotDone" => $"  {Field(verdict, "id")}  exercise not done yet: {Field(verdict, "file")}",
                _ => $"  {Field(verdict, "id")}  check failed: {Field(verdict, "message").Split('\n')[0].Trim()}",
            });
        }

        // "done" is ExerciseResult.Done, written by the kit: the runner counts it and never decides it again.
        writer.WriteLine($"{verdicts.Count(v => Field(v, "done") == "true")} of {verdicts.Count} exercise(s) done.");
    }

    private static string Field(JsonObject json, string name) => json[name]?.ToString() ?? "-";
}
