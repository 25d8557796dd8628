using System.Diagnostics.CodeAnalysis;
using System.Text.Json;

namespace PooledHttp.Content;

/// <summary>
/// The one <see cref="JsonSerializerOptions"/> instance the helpers use. Options cache the metadata
/// they build for each type; a new instance per call throws that cache away every time, which is
/// one of the costs "How to improve memory allocation when creating HttpContent" points out.
/// </summary>
public static class PooledJson
{
    internal const string ReflectionReason = "Serializes by reflection over the value's runtime type. Trimmed or native AOT code passes a JsonTypeInfo<T> from a JsonSerializerContext instead.";

    private static JsonSerializerOptions? _options;

    /// <summary>Web defaults (camelCase, case-insensitive reads) with the reflection-based resolver, built once and made read-only.</summary>
    public static JsonSerializerOptions Options
    {
        [RequiresUnreferencedCode(ReflectionReason)]
        [RequiresDynamicCode(ReflectionReason)]
        get => Volatile.Read(ref _options) ?? CreateOptions();
    }

    [RequiresUnreferencedCode(ReflectionReason)]
    [RequiresDynamicCode(ReflectionReason)]
    private static JsonSerializerOptions CreateOptions()
    {
        var options = new JsonSerializerOptions(JsonSerializerDefaults.Web);
        options.MakeReadOnly(populateMissingResolver: true);

        // Two first calls at once may both build one; the first stored wins, so every caller shares one cache.
        return Interlocked.CompareExchange(ref _options, options, null) ?? options;
    }
}
