using System.Text.Json.Nodes;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Tests.Repository;
using PooledHttp.Tests.Support;
using Xunit.Abstractions;

namespace PooledHttp.Tests.Notebooks;

/// <summary>
/// What every notebook of the series is made of, and the runner's failures. Each notebook's run is in
/// <see cref="NotebookRun"/>'s shards.
/// </summary>
public class NotebookExecutionTests
{
    private static readonly string Root = RepositoryTests.FindRoot();

    [Fact]
    public void The_shards_run_every_notebook_of_the_series_once()
    {
        string[] series = NotebookRun.Series();
        Assert.NotEmpty(series);

        // One test class per shard, each with its own shard number: a class missing or copied would drop or repeat notebooks.
        int[] shards = typeof(NotebookRun).Assembly.GetTypes().Where(t => t.IsSubclassOf(typeof(NotebookRun)))
            .SelectMany(t => t.GetMethods().SelectMany(m => m.GetCustomAttributes(typeof(MemberDataAttribute), false).Cast<MemberDataAttribute>()))
            .Select(data => (int)data.Parameters.Single()).ToArray();
        Assert.Equal(Enumerable.Range(0, NotebookRun.Shards), shards.Order());

        string[] dealt = shards.SelectMany(shard => NotebookRun.Shard(shard).Cast<object[]>().Select(row => (string)row[0])).ToArray();
        Assert.Equal(series, dealt.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void The_notebook_shards_are_queued_before_every_other_collection()
    {
        // Every collection of this assembly as xunit's own factory makes them (one per class, or the one a class names),
        // so the orderer is judged on the names and objects xunit gives it.
        var assembly = new Xunit.Sdk.TestAssembly(Xunit.Sdk.Reflector.Wrap(typeof(NotebookRun).Assembly));
        var factory = new Xunit.Sdk.CollectionPerClassTestCollectionFactory(assembly, new Xunit.Sdk.NullMessageSink());
        Type[] testClasses = [.. typeof(NotebookRun).Assembly.GetTypes()
            .Where(t => t.IsClass && !t.IsAbstract && t.GetMethods().Any(m => m.IsDefined(typeof(FactAttribute), inherit: true)))];
        Xunit.Abstractions.ITestCollection[] shards = [.. testClasses.Where(t => t.IsSubclassOf(typeof(NotebookRun))).Select(t => factory.Get(Xunit.Sdk.Reflector.Wrap(t)))];
        Xunit.Abstractions.ITestCollection[] collections = [.. testClasses.Select(t => factory.Get(Xunit.Sdk.Reflector.Wrap(t))).Distinct()];
        Assert.Equal(NotebookRun.Shards, shards.Length);
        Assert.True(collections.Length > 20, $"only {collections.Length} collections found");

        Xunit.Abstractions.ITestCollection[] ordered = [.. new NotebookShardsFirst().OrderTestCollections(collections)];

        // The same collections, each once, the shards first.
        Assert.Equal(collections.Length, ordered.Length);
        Assert.Equal(collections.Length, ordered.Distinct().Count());
        Assert.True(collections.All(ordered.Contains), "the orderer dropped a collection");
        Assert.Equal(shards.ToHashSet(), ordered.Take(shards.Length).ToHashSet());

        // And xunit is told to use it: the attribute names this type in this assembly.
        var named = typeof(NotebookRun).Assembly.GetCustomAttributesData().Single(a => a.AttributeType == typeof(TestCollectionOrdererAttribute));
        Assert.Equal([typeof(NotebookShardsFirst).FullName, typeof(NotebookShardsFirst).Assembly.GetName().Name], named.ConstructorArguments.Select(a => (string?)a.Value));
    }

    [Fact]
    public void Every_notebook_sets_up_in_two_short_cells_that_work_in_the_kernel_and_the_runner()
    {
        foreach (string path in Directory.EnumerateFiles(Path.Combine(Root, "notebooks"), "*.ipynb"))
        {
            var notebook = (JsonObject)JsonNode.Parse(File.ReadAllText(path))!;
            string[] code = ((JsonArray)notebook["cells"]!).OfType<JsonObject>().Where(c => (string?)c["cell_type"] == "code")
                .Select(c => string.Concat(((JsonArray)c["source"]!).Select(l => (string?)l))).ToArray();
            string name = Path.GetFileName(path);

            // 1: the build, from a script the kernel can #load. 2: the kit's one setup file (its #r lines, plotly.js and
            // the chart formatter), then only the chapter's own `using` lines, which a loaded file cannot give it.
            Assert.True(code[0].Split('\n').Last().Trim() == "#load \"workshop.csx\"", $"{name}: the first code cell is not the #load of workshop.csx");
            Assert.True(code[0].Split('\n').Length <= 3, $"{name}: the first setup cell is more than a #load");
            string[] setup = code[1].Split('\n');
            Assert.True(setup[0] == "#load \"kit.csx\"", $"{name}: the second code cell does not start with #load \"kit.csx\"");
            Assert.All(setup.Skip(1), line => Assert.True(line.StartsWith("using ", StringComparison.Ordinal), $"{name}: the second setup cell has '{line}', not only using lines"));
            Assert.All(code.Skip(2), cell => Assert.DoesNotContain("#r ", cell, StringComparison.Ordinal));
        }

        Assert.True(File.Exists(Path.Combine(Root, "notebooks", "workshop.csx")));
        Assert.True(File.Exists(Path.Combine(Root, "notebooks", "kit.csx")));
    }

    [Fact]
    public async Task Runner_fails_on_a_broken_notebook_and_names_the_cell()
    {
        string outDir = Path.Combine(Path.GetTempPath(), "pooledhttp-tests", Guid.NewGuid().ToString("N"));
        string broken = Path.Combine(Root, "tests", "PooledHttp.Workshop.Tests", "Notebooks", "broken.ipynb");
        (int exit, string stdout, string stderr) = await RunnerProcess.RunAsync(broken, "--out", outDir);
        Assert.NotEqual(0, exit);
        Assert.Contains("broken, cell 3", stderr, StringComparison.Ordinal);
        Assert.Matches(@"FAILED\s+[\d.]+ s\s+broken: cell 3", stdout);
        Assert.Contains("broken on purpose", stderr, StringComparison.Ordinal);
        Assert.DoesNotContain("never reached", stdout, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Runner_help_explains_itself_and_unknown_options_fail()
    {
        (int exit, string stdout, _) = await RunnerProcess.RunAsync("--help");
        Assert.Equal(0, exit);
        Assert.Contains("--quick", stdout, StringComparison.Ordinal);
        Assert.Contains("--out", stdout, StringComparison.Ordinal);
        (int bad, _, string error) = await RunnerProcess.RunAsync("--no-such-option");
        Assert.Equal(2, bad);
        Assert.Contains("--no-such-option", error, StringComparison.Ordinal);
    }

    [Fact]
    public void Notebooks_are_committed_without_outputs_and_with_the_dotnet_kernel()
    {
        foreach (string path in Directory.EnumerateFiles(Path.Combine(Root, "notebooks"), "*.ipynb"))
        {
            var notebook = (JsonObject)JsonNode.Parse(File.ReadAllText(path))!;
            Assert.Equal(".net-csharp", (string?)notebook["metadata"]?["kernelspec"]?["name"]);
            Assert.Equal("csharp", (string?)notebook["metadata"]?["polyglot_notebook"]?["kernelInfo"]?["defaultKernelName"]);
            Assert.All(((JsonArray)notebook["cells"]!).OfType<JsonObject>().Where(c => (string?)c["cell_type"] == "code"),
                cell => Assert.Empty((JsonArray)cell["outputs"]!));
        }
    }

    [Fact]
    public void Each_notebook_says_what_you_will_learn_and_links_to_the_next_one_that_exists()
    {
        string folder = Path.Combine(Root, "notebooks");
        string[] series = Directory.EnumerateFiles(folder, "*.ipynb").Select(Path.GetFileName).Order(StringComparer.Ordinal).ToArray()!;
        for (int i = 0; i < series.Length; i++)
        {
            var notebook = (JsonObject)JsonNode.Parse(File.ReadAllText(Path.Combine(folder, series[i])))!;
            string[] markdown = ((JsonArray)notebook["cells"]!).OfType<JsonObject>().Where(c => (string?)c["cell_type"] == "markdown")
                .Select(c => string.Concat(((JsonArray)c["source"]!).Select(l => (string?)l))).ToArray();
            Assert.Contains("What you will learn", markdown[0], StringComparison.Ordinal);

            // The last cell links onwards: to the next notebook of the series, or back to the first from the last.
            string expected = i + 1 < series.Length ? series[i + 1] : series[0];
            System.Text.RegularExpressions.Match link = System.Text.RegularExpressions.Regex.Match(markdown[^1], @"\]\(([^)]+\.ipynb)\)");
            Assert.True(link.Success, $"{series[i]}: the last cell links to no notebook");
            Assert.Equal(expected, link.Groups[1].Value);
        }
    }

    [Fact]
    public void Every_glossary_term_is_linked_from_a_chapter_and_every_glossary_link_has_its_term()
    {
        // GitHub's anchors for "## Pool bucket" and "## Content-Length": lower case, spaces to hyphens.
        string glossary = File.ReadAllText(Path.Combine(Root, "docs", "glossary.md"));
        string[] anchors = glossary.Split('\n').Where(l => l.StartsWith("## ", StringComparison.Ordinal))
            .Select(l => l[3..].Trim().ToLowerInvariant().Replace(' ', '-')).ToArray();
        Assert.Contains("pool-bucket", anchors);

        var linked = new HashSet<string>();
        foreach (string path in Directory.EnumerateFiles(Path.Combine(Root, "notebooks"), "*.ipynb"))
        {
            foreach (System.Text.RegularExpressions.Match link in System.Text.RegularExpressions.Regex.Matches(File.ReadAllText(path), @"\]\(\.\./docs/glossary\.md#([a-z0-9-]+)\)"))
            {
                string anchor = link.Groups[1].Value;
                Assert.True(anchors.Contains(anchor), $"{Path.GetFileName(path)} links to #{anchor}, which docs/glossary.md does not define");
                linked.Add(anchor);
            }
        }

        Assert.Empty(anchors.Except(linked));
    }
}
