using System.Text.Json.Nodes;

namespace PooledHttp.Tests.Support;

/// <summary>Small notebooks written on the fly into a folder of their own, to run through the runner.</summary>
internal sealed class ScratchNotebooks
{
    public ScratchNotebooks()
    {
        Folder = Path.Combine(Path.GetTempPath(), "pooledhttp-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Folder);
    }

    public string Folder { get; }

    public string Output => Path.Combine(Folder, "out");

    /// <summary>Writes a notebook of C# code cells and returns its path.</summary>
    public string Write(string name, params string[] cells)
    {
        var notebook = new JsonObject
        {
            ["cells"] = new JsonArray(cells.Select((source, i) => (JsonNode?)new JsonObject
            {
                ["cell_type"] = "code",
                ["execution_count"] = null,
                ["id"] = $"cell{i + 1}",
                ["metadata"] = new JsonObject(),
                ["outputs"] = new JsonArray(),
                ["source"] = source,
            }).ToArray()),
            ["metadata"] = new JsonObject
            {
                ["kernelspec"] = new JsonObject { ["display_name"] = ".NET (C#)", ["language"] = "C#", ["name"] = ".net-csharp" },
                ["language_info"] = new JsonObject { ["name"] = "C#" },
            },
            ["nbformat"] = 4,
            ["nbformat_minor"] = 5,
        };
        string path = Path.Combine(Folder, name + ".ipynb");
        File.WriteAllText(path, notebook.ToJsonString());
        return path;
    }

    /// <summary>Writes a file beside the notebooks (a script to #load, for example).</summary>
    public void WriteFile(string name, string text) => File.WriteAllText(Path.Combine(Folder, name), text);

    public Task<ChildResult> RunAsync(params string[] notebooks)
        => RunnerProcess.RunAsync([.. notebooks, "--out", Output]);

    /// <summary>The executed copy's code cells.</summary>
    public IReadOnlyList<JsonObject> ExecutedCells(string name)
    {
        var executed = (JsonObject)JsonNode.Parse(File.ReadAllText(ExecutedPath(name)))!;
        return ((JsonArray)executed["cells"]!).OfType<JsonObject>().ToList();
    }

    public string ExecutedPath(string name) => Path.Combine(Output, "notebooks", name + ".ipynb");

    public static IReadOnlyList<JsonObject> Outputs(JsonObject cell) => ((JsonArray)cell["outputs"]!).OfType<JsonObject>().ToList();
}
