using NJsonSchema;
using NJsonSchema.Validation;

namespace PooledHttp.Tests.Support;

/// <summary>
/// Validates a notebook against the official nbformat 4.5 JSON schema, the one Jupyter's own <c>nbformat</c>
/// package validates with (<c>Support/nbformat/nbformat.v4.5.schema.json</c>, copied unchanged from nbformat
/// 5.5.0; BSD-3-Clause, see <c>COPYRIGHT-nbformat.txt</c> beside it). In .NET, so <c>dotnet test</c> needs
/// nothing installed: NJsonSchema reads the schema's draft 4.
/// </summary>
internal static class NbformatValidator
{
    private static readonly Lazy<Task<JsonSchema>> Schema = new(LoadAsync);

    /// <summary>The schema's complaints about <paramref name="notebookJson"/>; empty when it is valid nbformat 4.5.</summary>
    public static async Task<IReadOnlyList<string>> ErrorsAsync(string notebookJson)
    {
        JsonSchema schema = await Schema.Value;
        ICollection<ValidationError> errors = schema.Validate(notebookJson);
        return [.. errors.Select(e => e.ToString())];
    }

    /// <summary>
    /// The schema, with one change of form that keeps its meaning: it keeps its shared pieces one level down, in
    /// <c>definitions/misc/…</c>, where a draft 4 reader expects schemas only directly under <c>definitions</c>
    /// (NJsonSchema cannot resolve <c>#/definitions/misc/source</c>). They move up as <c>definitions/misc_…</c>,
    /// and the references follow.
    /// </summary>
    private static async Task<JsonSchema> LoadAsync()
    {
        string path = Path.Combine(AppContext.BaseDirectory, "Support", "nbformat", "nbformat.v4.5.schema.json");
        var root = (System.Text.Json.Nodes.JsonObject)System.Text.Json.Nodes.JsonNode.Parse(await File.ReadAllTextAsync(path))!;
        var definitions = (System.Text.Json.Nodes.JsonObject)root["definitions"]!;
        var misc = (System.Text.Json.Nodes.JsonObject)definitions["misc"]!;
        definitions.Remove("misc");
        foreach (string name in misc.Select(p => p.Key).ToList())
        {
            System.Text.Json.Nodes.JsonNode? piece = misc[name];
            misc.Remove(name);
            definitions["misc_" + name] = piece;
        }

        string flattened = root.ToJsonString().Replace("#/definitions/misc/", "#/definitions/misc_", StringComparison.Ordinal);
        return await JsonSchema.FromJsonAsync(flattened);
    }

    public static async Task AssertValidAsync(string path)
    {
        IReadOnlyList<string> errors = await ErrorsAsync(await File.ReadAllTextAsync(path));
        Assert.True(errors.Count == 0, $"{path} is not valid nbformat 4.5:\n{string.Join("\n", errors)}");
    }
}
