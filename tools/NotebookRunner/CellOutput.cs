using System.Reflection;
using System.Text.Json.Nodes;

namespace NotebookRunner;

/// <summary>One output of an executed cell, in the shape .ipynb files store it.</summary>
internal sealed record CellOutput(JsonObject Json, bool IsError = false, bool IsHtml = false)
{
    public static CellOutput Stream(string name, string text) => new(new JsonObject
    {
        ["output_type"] = "stream",
        ["name"] = name,
        ["text"] = Lines(text),
    });

    public static CellOutput Display(object? value, string outputType = "display_data")
    {
        (string? html, string text) = Render(value);
        var data = new JsonObject { ["text/plain"] = Lines(text) };
        if (html is not null)
        {
            data["text/html"] = Lines(html);
        }

        var json = new JsonObject { ["output_type"] = outputType, ["data"] = data, ["metadata"] = new JsonObject() };
        return new CellOutput(json, IsHtml: html is not null);
    }

    public static CellOutput Error(string name, string message, string detail) => new(new JsonObject
    {
        ["output_type"] = "error",
        ["ename"] = name,
        ["evalue"] = message,
        ["traceback"] = new JsonArray(detail.Split('\n').Select(l => (JsonNode?)JsonValue.Create(l.TrimEnd('\r'))).ToArray()),
    }, IsError: true);

    /// <summary>Text of an output, for messages and tests.</summary>
    public string Text => Json["text"]?.ToJsonString() ?? Json["evalue"]?.ToString() ?? Json["data"]?["text/plain"]?.ToJsonString() ?? string.Empty;

    private static (string? Html, string Text) Render(object? value)
    {
        switch (value)
        {
            case null:
                return (null, "<null>");
            case HtmlString h:
                return (h.Html, "[HTML]");
            default:
                // Duck-typed: the helpers' tables and charts have ToHtml(); the runner need not reference them.
                MethodInfo? toHtml = value.GetType().GetMethod("ToHtml", BindingFlags.Public | BindingFlags.Instance, Type.EmptyTypes);
                string text = value.ToString() ?? string.Empty;
                return toHtml?.ReturnType == typeof(string) ? ((string?)toHtml.Invoke(value, null), text) : (null, text);
        }
    }

    private static JsonArray Lines(string text)
    {
        // .ipynb stores multi-line strings as arrays of lines, each keeping its newline.
        var lines = new JsonArray();
        int start = 0;
        for (int i = 0; i < text.Length; i++)
        {
            if (text[i] == '\n')
            {
                lines.Add(text[start..(i + 1)]);
                start = i + 1;
            }
        }

        if (start < text.Length)
        {
            lines.Add(text[start..]);
        }

        return lines;
    }
}
