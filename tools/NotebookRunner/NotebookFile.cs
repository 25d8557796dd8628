using System.Text.Json;
using System.Text.Json.Nodes;

namespace NotebookRunner;

/// <summary>
/// An .ipynb file, or a Polyglot Notebooks .dib file read into the same shape: its code cells to run, and the
/// notebook written back as .ipynb with outputs (a .dib has nowhere to keep them).
/// </summary>
internal sealed class NotebookFile
{
    private readonly JsonObject _root;

    private NotebookFile(string path, JsonObject root)
    {
        Path = path;
        _root = root;
        Cells = (root["cells"] as JsonArray ?? throw new InvalidDataException($"{path}: no 'cells' array"))
            .OfType<JsonObject>()
            .Select((cell, index) => new Cell(index + 1, cell))
            .ToList();
    }

    public string Path { get; }

    public string Name => System.IO.Path.GetFileNameWithoutExtension(Path);

    public IReadOnlyList<Cell> Cells { get; }

    public IEnumerable<Cell> CodeCells => Cells.Where(c => c.IsCode);

    /// <summary>
    /// The cell kernels a .dib line <c>#!name</c> starts a cell for, as dotnet/interactive's
    /// <c>CodeSubmission.Parse</c> (src/Microsoft.DotNet.Interactive.Documents) splits on the names and aliases of
    /// the kernels it knows; any other <c>#!</c> line (<c>#!time</c>, say) is a magic command inside its cell.
    /// </summary>
    private static readonly Dictionary<string, string> DibKernels = new(StringComparer.Ordinal)
    {
        ["csharp"] = "csharp", ["c#"] = "csharp", ["C#"] = "csharp", ["cs"] = "csharp",
        ["fsharp"] = "fsharp", ["f#"] = "fsharp", ["F#"] = "fsharp", ["fs"] = "fsharp",
        ["pwsh"] = "pwsh", ["powershell"] = "pwsh", ["javascript"] = "javascript", ["js"] = "javascript",
        ["html"] = "html", ["sql"] = "sql", ["kql"] = "kql", ["mermaid"] = "mermaid", ["value"] = "value", ["http"] = "http",
        ["markdown"] = "markdown", ["md"] = "markdown",
    };

    public static NotebookFile Load(string path)
    {
        if (path.EndsWith(".dib", StringComparison.OrdinalIgnoreCase))
        {
            return new NotebookFile(path, FromDib(File.ReadAllText(path)));
        }

        JsonNode? root;
        try
        {
            root = JsonNode.Parse(File.ReadAllText(path));
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"{path} is not valid JSON: {e.Message}", e);
        }

        return new NotebookFile(path, root as JsonObject ?? throw new InvalidDataException($"{path}: not a notebook object"));
    }

    /// <summary>
    /// A .dib as nbformat 4.5, split as <c>CodeSubmission.Parse</c> splits it: lines before the first kernel line
    /// belong to C#, the default kernel; <c>#!meta</c> and the lines after it up to the next <c>#!</c> line are
    /// metadata; every line <c>#!kernel</c> starts a cell of that kernel; leading and trailing empty lines are not
    /// part of a cell, and a cell left empty is no cell.
    /// </summary>
    private static JsonObject FromDib(string text)
    {
        var cells = new JsonArray();
        string kernel = "csharp";
        var lines = new List<string>();

        void Flush()
        {
            int first = lines.FindIndex(l => l.Length > 0);
            if (first < 0)
            {
                lines.Clear();
                return;
            }

            int last = lines.FindLastIndex(l => l.Length > 0);
            string[] kept = [.. lines.GetRange(first, last - first + 1)];
            JsonArray source = new([.. kept.Select((l, i) => (JsonNode?)JsonValue.Create(i < kept.Length - 1 ? l + "\n" : l))]);
            string id = $"dib-{cells.Count + 1}";
            cells.Add(kernel == "markdown"
                ? new JsonObject { ["cell_type"] = "markdown", ["id"] = id, ["metadata"] = new JsonObject(), ["source"] = source }
                : new JsonObject
                {
                    ["cell_type"] = "code",
                    ["execution_count"] = null,
                    ["id"] = id,
                    ["metadata"] = new JsonObject { ["polyglot_notebook"] = new JsonObject { ["kernelName"] = kernel } },
                    ["outputs"] = new JsonArray(),
                    ["source"] = source,
                });
            lines.Clear();
        }

        string[] all = text.Replace("\r\n", "\n", StringComparison.Ordinal).Split('\n');
        bool metadataSeen = false;
        for (int i = 0; i < all.Length; i++)
        {
            string line = all[i];
            if (!metadataSeen && line.StartsWith("#!meta", StringComparison.Ordinal))
            {
                metadataSeen = true;
                while (i < all.Length - 1 && !all[i + 1].StartsWith("#!", StringComparison.Ordinal))
                {
                    i++;
                }

                continue;
            }

            if (line.StartsWith("#!", StringComparison.Ordinal) && DibKernels.TryGetValue(line[2..].TrimEnd(), out string? next))
            {
                Flush();
                kernel = next;
                continue;
            }

            lines.Add(line);
        }

        Flush();
        return new JsonObject
        {
            ["cells"] = cells,
            ["metadata"] = new JsonObject
            {
                ["kernelspec"] = new JsonObject { ["display_name"] = ".NET (C#)", ["language"] = "C#", ["name"] = ".net-csharp" },
                ["language_info"] = new JsonObject { ["name"] = "C#" },
            },
            ["nbformat"] = 4,
            ["nbformat_minor"] = 5,
        };
    }

    public void Save(string path)
    {
        Directory.CreateDirectory(System.IO.Path.GetDirectoryName(System.IO.Path.GetFullPath(path))!);
        File.WriteAllText(path, _root.ToJsonString(new JsonSerializerOptions { WriteIndented = true }) + "\n");
    }

    /// <summary>One cell of the notebook.</summary>
    internal sealed class Cell(int number, JsonObject json)
    {
        public int Number { get; } = number;

        public bool IsCode => json["cell_type"]?.GetValue<string>() == "code";

        /// <summary>The cell's kernel language: Polyglot Notebooks store it per cell; C# when absent.</summary>
        public string Language => json["metadata"]?["polyglot_notebook"]?["kernelName"]?.GetValue<string>()
            ?? json["metadata"]?["dotnet_interactive"]?["language"]?.GetValue<string>()
            ?? "csharp";

        public string Source => json["source"] switch
        {
            JsonArray lines => string.Concat(lines.Select(l => l?.GetValue<string>())),
            JsonValue text => text.GetValue<string>(),
            _ => string.Empty,
        };

        public void SetOutputs(IEnumerable<CellOutput> outputs, int executionCount)
        {
            // The outputs' own objects, not copies: a display updated after its cell ended still lands.
            json["outputs"] = new JsonArray(outputs.Select(o => (JsonNode?)o.Json).ToArray());
            json["execution_count"] = executionCount;
        }
    }
}
