using Microsoft.CodeAnalysis.CSharp.Scripting;
using Microsoft.CodeAnalysis.Scripting;

namespace PooledHttp.Tests.Notebooks;

/// <summary>notebooks/chart-libraries.csx: which assemblies it loads together, read from the assemblies themselves.</summary>
public class ChartLibrariesTests
{
    [Fact]
    public async Task The_libraries_on_FSharp_Core_go_together_and_the_kit_stays_with_the_host()
    {
        // The test's output folder holds the kit and Plotly.NET with their dependencies, as the notebooks' build folder does.
        string script = Script();
        string[] together = await CSharpScript.EvaluateAsync<string[]>($"{script}\nnew ChartLibraries(@\"{AppContext.BaseDirectory}\").Together.OrderBy(n => n, StringComparer.Ordinal).ToArray()", Options);

        Assert.Contains("FSharp.Core", together);
        Assert.Contains("Plotly.NET", together);
        Assert.Contains("Giraffe.ViewEngine", together);
        Assert.Contains("DynamicObj", together);
        Assert.DoesNotContain("PooledHttp.Workshop", together);
        Assert.DoesNotContain("Newtonsoft.Json", together); // Plotly.NET's, but not F#: resolved where the host resolves it
    }

    [Fact]
    public async Task A_folder_without_FSharp_Core_fails_with_what_to_do()
    {
        string script = Script();
        string empty = Directory.CreateTempSubdirectory("chart-libraries-").FullName;
        try
        {
            var error = await Assert.ThrowsAsync<InvalidOperationException>(() => CSharpScript.EvaluateAsync<object>($"{script}\nnew ChartLibraries(@\"{empty}\")", Options));
            Assert.Contains("no FSharp.Core.dll", error.Message, StringComparison.Ordinal);
            Assert.Contains("Run the chapter's first cell again", error.Message, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(empty, recursive: true);
        }
    }

    /// <summary>What the script needs beside the runtime: the load contexts and the metadata reader.</summary>
    private static readonly ScriptOptions Options = ScriptOptions.Default
        .WithReferences(typeof(Enumerable).Assembly, typeof(System.Runtime.Loader.AssemblyLoadContext).Assembly, typeof(System.Reflection.Metadata.MetadataReader).Assembly)
        .WithImports("System", "System.Linq", "System.Collections.Generic");

    private static string Script() => File.ReadAllText(Path.Combine(RepositoryRoot.Find(), "notebooks", "chart-libraries.csx"));
}
