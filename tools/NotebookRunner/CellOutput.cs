using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Html;
using System.Text.Encodings.Web;

namespace NotebookRunner;

/// <summary>
/// One output of an executed cell, in the shape nbformat 4 stores it. Display outputs stay mutable:
/// <c>DisplayedValue.Update</c> replaces their data in place, as the kernel's
/// <c>DisplayedValueUpdated</c> event does in an editor.
/// </summary>
internal sealed class CellOutput
{
    private const string Html = "text/html";
    private const string Plain = "text/plain";

    private CellOutput(JsonObject json, string kind)
    {
        Json = json;
        Kind = kind;
    }

    /// <summary>The output as it goes into the .ipynb file.</summary>
    public JsonObject Json { get; }

    /// <summary>"stdout", "stderr", "display_data", "execute_result" or "error".</summary>
    public string Kind { get; }

    public bool IsError => Kind == "error";

    public bool IsHtml => Json["data"]?[Html] is not null;

    public IReadOnlyCollection<string> MimeTypes => Json["data"] is JsonObject data ? data.Select(p => p.Key).ToArray() : [];

    /// <summary>Console text; the runner appends to the last stream output while the same stream keeps writing.</summary>
    public static CellOutput Stream(string name) => new(new JsonObject
    {
        ["output_type"] = "stream",
        ["name"] = name,
        ["text"] = string.Empty,
    }, name);

    public static CellOutput Display(object? value, string[] mimeTypes) => new(new JsonObject
    {
        ["output_type"] = "display_data",
        ["data"] = Format(value, mimeTypes),
        ["metadata"] = new JsonObject(),
    }, "display_data");

    /// <summary>A cell's trailing expression, as the kernel's <c>ReturnValueProduced</c>.</summary>
    public static CellOutput Result(object? value, int executionCount) => new(new JsonObject
    {
        ["output_type"] = "execute_result",
        ["execution_count"] = executionCount,
        ["data"] = Format(value, []),
        ["metadata"] = new JsonObject(),
    }, "execute_result");

    public static CellOutput Error(string name, string message, string detail) => new(new JsonObject
    {
        ["output_type"] = "error",
        ["ename"] = name,
        ["evalue"] = message,
        ["traceback"] = new JsonArray(detail.Split('\n').Select(l => (JsonNode?)JsonValue.Create(l.TrimEnd('\r'))).ToArray()),
    }, "error");

    /// <summary>Text of an output, for the console and for messages.</summary>
    public string Text => Kind switch
    {
        "stdout" or "stderr" => (string?)Json["text"] ?? string.Empty,
        "error" => (string?)Json["evalue"] ?? string.Empty,
        _ => Json["data"]?[Plain] is JsonValue plain ? (string?)plain ?? string.Empty : $"[HTML, {((string?)Json["data"]?[Html])?.Length ?? 0:N0} characters]",
    };

    public void Append(string text) => Json["text"] = (string?)Json["text"] + text;

    public void Replace(object? value, string[] mimeTypes) => Json["data"] = Format(value, mimeTypes);

    /// <summary>
    /// The kernel's choice of representation: with no MIME type asked for, an <see cref="IHtmlContent"/>
    /// is written as HTML (its HTML formatter calls <c>WriteTo</c>), so is a value whose type has an HTML
    /// formatter registered with <c>Formatter.Register</c>, and a string is plain text. Other
    /// objects the kernel renders as an HTML table of their properties; the runner shows their
    /// <c>ToString()</c>, so a notebook that wants HTML must hand over HTML, in both hosts.
    /// </summary>
    private static JsonObject Format(object? value, string[] mimeTypes)
    {
        string[] wanted = mimeTypes.Where(m => !string.IsNullOrWhiteSpace(m)).ToArray();
        if (wanted.Length == 0)
        {
            wanted = [value is IHtmlContent || Microsoft.DotNet.Interactive.Formatting.Formatter.Has(value, Html) ? Html : Plain];
        }

        var data = new JsonObject();
        foreach (string mime in wanted)
        {
            data[mime] = mime == Html ? HtmlOf(value) : value?.ToString() ?? "<null>";
        }

        return data;
    }

    private static string WriteHtml(IHtmlContent content)
    {
        using var writer = new StringWriter();
        content.WriteTo(writer, HtmlEncoder.Default);
        return writer.ToString();
    }

    private static string HtmlOf(object? value) => value switch
    {
        _ when Microsoft.DotNet.Interactive.Formatting.Formatter.TryFormat(value, Html, out string registered) => registered,
        IHtmlContent html => WriteHtml(html),
        null => "<null>",
        _ => System.Net.WebUtility.HtmlEncode(value.ToString() ?? string.Empty),
    };
}
