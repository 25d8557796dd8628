// dotnet run --project tools/Publish/RenderChapters -- [the run's output folder; artifacts by default]
// For every notebook under notebooks/: takes its executed copy from the run, stores it without plotly.js in
// data/results/reference/notebooks/, writes its page to docs/chapters/NAME.md and renders each chart on it to
// docs/chapters/img/ at the chart's own size, without plotly's toolbar (ChartPicture: headless Chromium, Chrome or
// Edge, networking off). Exit 1 when no browser is found, a chapter is missing from the run or a picture could not be rendered.
using PooledHttp.Publishing;
using System.CommandLine;
using System.Text.Json;
using System.Text.Json.Nodes;
using PooledHttp.Tools;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Notebooks;

string root = WorkshopPaths.Root;
var runFolder = new Argument<string>("run")
{
    Description = "The output folder of a run of the whole series.",
    Arity = ArgumentArity.ZeroOrOne,
    DefaultValueFactory = _ => Path.Combine(root, "artifacts"),
}.RejectingUnknownOptions();
var command = new RootCommand(
    "Renders each executed chapter of a run as a Markdown page GitHub displays (docs/chapters), its charts as pictures at their own size "
    + "(headless Chromium, Chrome or Edge), and keeps the executed notebooks in data/results/reference/notebooks. "
    + "Exit code 1 when no browser is found, a chapter is missing from the run or a picture could not be rendered.")
{
    runFolder,
};
command.SetAction((parsed, _) => RenderAsync(Path.GetFullPath(parsed.GetValue(runFolder)!)));
return await ToolCommandLine.InvokeAsync(command, args);

async Task<int> RenderAsync(string run)
{
    string pages = Path.Combine(root, ChapterRendering.PagesFolder);
    string stored = Path.Combine(root, ChapterRendering.NotebooksFolder);
    string pictures = Path.Combine(pages, "img");
    Directory.CreateDirectory(stored);
    Directory.CreateDirectory(pictures);

    BrowserLookup lookup = ChromiumLocator.Locate();
    if (lookup.Path is not { } browser)
    {
        Console.Error.WriteLine(lookup.Message);
        return 1;
    }

    var written = new HashSet<string>(StringComparer.Ordinal);
    int failures = 0;
    foreach (string notebook in Directory.GetFiles(Path.Combine(root, "notebooks"), "*.ipynb").Order(StringComparer.Ordinal))
    {
        string name = Path.GetFileNameWithoutExtension(notebook);
        string executed = Path.Combine(run, "notebooks", name + ".ipynb");
        if (!File.Exists(executed))
        {
            Console.Error.WriteLine($"{name}: not in {run}/notebooks. Run the whole series first: dotnet run --project tools/NotebookRunner -c Release");
            failures++;
            continue;
        }

        JsonObject kept = ChapterRendering.WithoutPlotlyScript((JsonObject)JsonNode.Parse(File.ReadAllText(executed))!);
        File.WriteAllText(Path.Combine(stored, name + ".ipynb"), kept.ToJsonString(new JsonSerializerOptions { WriteIndented = true }) + "\n");
        File.WriteAllText(Path.Combine(pages, name + ".md"), ChapterRendering.Markdown(name, kept));
        int charts = 0;
        foreach ((string picture, string html) in ChapterRendering.Charts(name, kept))
        {
            string png = Path.Combine(pages, picture);
            try
            {
                await ChartPicture.RenderAsync(html, png, browser: browser);
            }
            catch (InvalidOperationException e)
            {
                Console.Error.WriteLine($"{name}: {picture} was not rendered: {e.Message}");
                failures++;
            }

            written.Add(Path.GetFullPath(png));
            charts++;
        }

        Console.WriteLine($"{name}: {ChapterRendering.PagesFolder}/{name}.md, {charts} chart(s)");
    }

    // Pictures of charts that no page shows any more.
    foreach (string old in Directory.GetFiles(pictures, "*.png").Where(p => !written.Contains(Path.GetFullPath(p))))
    {
        File.Delete(old);
    }

    return failures == 0 ? 0 : 1;
}
