using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.DotNet.Interactive.Documents;
using Microsoft.DotNet.Interactive.Documents.Jupyter;

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
    /// A .dib read by the kernel's own document reader (dotnet/interactive, <c>CodeSubmission.Parse</c> in
    /// src/Microsoft.DotNet.Interactive.Documents), with the kernels the tool knows, and turned into .ipynb by the same
    /// library, as an editor saves it.
    /// </summary>
    private static JsonObject FromDib(string text)
    {
        InteractiveDocument document = CodeSubmission.Parse(text, KernelSession.DibKernels());
        JsonObject notebook = JsonNode.Parse(document.ToJupyterJson("C#"))!.AsObject();

        // nbformat 4.5 requires a cell id, which that writer leaves out (Jupyter adds one when it reads such a file).
        int number = 0;
        foreach (JsonObject cell in (notebook["cells"] as JsonArray ?? []).OfType<JsonObject>())
        {
            cell["id"] ??= $"dib-{++number}";
        }

        return notebook;
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
            // The outputs' own objects, not copies: a later cell's update of a display (by its id) lands here too.
            json["outputs"] = new JsonArray(outputs.Select(o => (JsonNode?)o.Json).ToArray());
            json["execution_count"] = executionCount;
        }

        public void ClearOutputs()
        {
            json["outputs"] = new JsonArray();
            json["execution_count"] = null;
        }
    }
}
