using System.Text.Json;

namespace PooledHttp.Content;

/// <summary>
/// The one <see cref="JsonSerializerOptions"/> instance the helpers use. Options cache the metadata
/// they build for each type; a new instance per call throws that cache away every time, which is
/// one of the costs "How to improve memory allocation when creating HttpContent" points out.
/// </summary>
public static class PooledJson
{
    /// <summary>Web defaults (camelCase, case-insensitive reads), built once and made read-only.</summary>
    public static JsonSerializerOptions Options { get; } = CreateOptions();

    private static JsonSerializerOptions CreateOptions()
    {
        var options = new JsonSerializerOptions(JsonSerializerDefaults.Web);
        options.MakeReadOnly(populateMissingResolver: true);
        return options;
    }
}
