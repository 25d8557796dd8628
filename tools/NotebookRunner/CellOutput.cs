using System.Text.Json.Nodes;
using Microsoft.DotNet.Interactive.Formatting;

namespace NotebookRunner;

/// <summary>
/// One output of an executed cell, in the shape nbformat 4 stores it and Jupyter saves it: the kernel's formatted
/// values as a MIME bundle. Display outputs stay mutable: a <c>DisplayedValueUpdated</c> for the same value id
/// replaces their data in place, as Jupyter's <c>update_display_data</c> does.
/// </summary>
internal sealed partial class CellOutput
{
    private const string Html = "text/html";
    private const string Plain = "text/plain";

    private CellOutput(JsonObject json, string kind, string? displayId = null)
    {
        Json = json;
        Kind = kind;
        DisplayId = displayId;
    }

    /// <summary>The output as it goes into the .ipynb file.</summary>
    public JsonObject Json { get; }

    /// <summary>"stdout", "stderr", "display_data", "execute_result" or "error".</summary>
    public string Kind { get; }

    /// <summary>
    /// The kernel's value id, which Jupyter's front ends keep as the output's transient <c>display_id</c> and
    /// nbformat does not store: what an update names.
    /// </summary>
    public string? DisplayId { get; }

    public bool IsError => Kind == "error";

    public bool IsHtml => Json["data"]?[Html] is not null;

    /// <summary>Console text; the runner appends to the last stream output while the same stream keeps writing.</summary>
    public static CellOutput Stream(string name) => new(new JsonObject
    {
        ["output_type"] = "stream",
        ["name"] = name,
        ["text"] = string.Empty,
    }, name);

    /// <summary>A <c>DisplayedValueProduced</c>: <c>display_data</c> carrying every formatted value the kernel sent.</summary>
    public static CellOutput Display(IEnumerable<FormattedValue> values, string displayId) => new(new JsonObject
    {
        ["output_type"] = "display_data",
        ["data"] = Bundle(values),
        ["metadata"] = new JsonObject(),
    }, "display_data", displayId);

    /// <summary>A <c>ReturnValueProduced</c>: the cell's trailing expression.</summary>
    public static CellOutput Result(IEnumerable<FormattedValue> values, int executionCount, string displayId) => new(new JsonObject
    {
        ["output_type"] = "execute_result",
        ["execution_count"] = executionCount,
        ["data"] = Bundle(values),
        ["metadata"] = new JsonObject(),
    }, "execute_result", displayId);

    /// <summary>A <c>CommandFailed</c>: "Error", the message, and the traceback the tool's Jupyter handler sends for it.</summary>
    public static CellOutput Error(string name, string message, IEnumerable<string> traceback) => new(new JsonObject
    {
        ["output_type"] = "error",
        ["ename"] = name,
        ["evalue"] = message,
        ["traceback"] = new JsonArray([.. traceback.Select(l => (JsonNode?)JsonValue.Create(l.TrimEnd('\r')))]),
    }, "error");

    /// <summary>Text of an output, for the console and for messages.</summary>
    public string Text => Kind switch
    {
        "stdout" or "stderr" => (string?)Json["text"] ?? string.Empty,
        "error" => (string?)Json["evalue"] ?? string.Empty,
        _ => Json["data"]?[Plain] is JsonValue plain ? (string?)plain ?? string.Empty : $"[HTML, {((string?)Json["data"]?[Html])?.Length ?? 0:N0} characters]",
    };

    public void Append(string text) => Json["text"] = (string?)Json["text"] + text;

    /// <summary>Replaces this display's data with an update's formatted values.</summary>
    public void Replace(IEnumerable<FormattedValue> values) => Json["data"] = Bundle(values);

    /// <summary>Replaces this display's data with a later output's of the same display id.</summary>
    public void Replace(CellOutput later) => Json["data"] = later.Json["data"]?.DeepClone();

    /// <summary>
    /// What nbconvert's <c>coalesce_streams</c> does to a stream's text: a line a carriage return went back over keeps
    /// only what was written after it (<c>.*\r(?=[^\n])</c> removed), as a terminal shows it.
    /// </summary>
    public void DropOverwrittenText()
    {
        if (Kind is "stdout" or "stderr" && (string?)Json["text"] is { } text && text.Contains('\r', StringComparison.Ordinal))
        {
            Json["text"] = OverwrittenText().Replace(text, string.Empty);
        }
    }

    /// <summary>One entry per MIME type, as the .NET kernel's Jupyter front end keys a display's data.</summary>
    private static JsonObject Bundle(IEnumerable<FormattedValue> values)
    {
        var data = new JsonObject();
        foreach (FormattedValue value in values)
        {
            data[value.MimeType] = value.MimeType == "application/json" ? JsonNode.Parse(value.Value) : value.Value;
        }

        return data;
    }

    [System.Text.RegularExpressions.GeneratedRegex(@".*\r(?=[^\n])")]
    private static partial System.Text.RegularExpressions.Regex OverwrittenText();
}
