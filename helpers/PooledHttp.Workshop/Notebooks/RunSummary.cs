using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Notebooks;

/// <summary>
/// What a notebook's process tells the headless runner: <c>summaries/&lt;notebook&gt;.json</c> in the run's
/// output folder, holding the rows it measured and its exercises' verdicts, by name. The runner adds how the
/// notebook ended and prints and sums up these files; it reads nothing else of the kit's.
/// </summary>
/// <remarks>Written only under the runner (<see cref="WorkshopPaths.UnderRunner"/>); an editor has nobody to tell.</remarks>
public static class RunSummary
{
    /// <summary>The folder of the summaries under the run's output folder.</summary>
    public const string Folder = "summaries";

    private static readonly Lock Gate = new();

    /// <summary>The summary file of <paramref name="notebook"/> in the run's output folder.</summary>
    public static string PathOf(string notebook) => Path.Combine(WorkshopPaths.Output, Folder, notebook + ".json");

    /// <summary>Adds <paramref name="rows"/>, measured by <paramref name="notebook"/>.</summary>
    internal static void Add(string notebook, IEnumerable<MeasuredRow> rows)
        => Update(notebook, "rows", rows.Select(row => (JsonNode)new JsonObject
        {
            ["strategy"] = row.Label,
            ["payload"] = row.PayloadBytes is { } size ? ByteUnits.Format(size) : "-",
            ["runtime"] = row.Runtime,
            ["allocated"] = ByteUnits.Format(row.AllocatedBytes),
            ["gen0"] = PerThousand(row.Gen0),
            ["gen2"] = PerThousand(row.Gen2),
            ["mean"] = TimeUnits.Format(row.MeanNs),
        }));

    /// <summary>Adds an exercise's verdict, given in <paramref name="notebook"/>: its check, its goal (null: none, or not measured) and whether it is done.</summary>
    internal static void AddExercise(string notebook, string id, string file, string status, string message, bool? goalMet, bool done)
        => Update(notebook, "exercises", [new JsonObject { ["id"] = id, ["file"] = file, ["status"] = status, ["message"] = message, ["goalMet"] = goalMet, ["done"] = done }]);

    private static string PerThousand(double collections) => collections == 0 ? "-" : collections.ToString("0.####", CultureInfo.InvariantCulture);

    private static void Update(string notebook, string list, IEnumerable<JsonNode> items)
    {
        if (!WorkshopPaths.UnderRunner)
        {
            return;
        }

        lock (Gate)
        {
            string path = PathOf(notebook);
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            JsonObject summary = File.Exists(path) ? JsonNode.Parse(File.ReadAllText(path))!.AsObject() : new JsonObject { ["notebook"] = notebook };
            if (summary[list] is not JsonArray entries)
            {
                summary[list] = entries = [];
            }

            foreach (JsonNode item in items)
            {
                entries.Add(item);
            }

            File.WriteAllText(path, summary.ToJsonString(new JsonSerializerOptions { WriteIndented = true }));
        }
    }
}
