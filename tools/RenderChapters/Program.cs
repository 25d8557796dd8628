// dotnet run --project tools/RenderChapters -- [the run's output folder; artifacts by default]
// For every notebook under notebooks/: takes its executed copy from the run, stores it without plotly.js in
// data/results/reference/notebooks/, writes its page to docs/chapters/NAME.md and renders each chart on it to
// docs/chapters/img/ with headless Chromium (tools/render-chart.sh, networking off). Exit 1 when a chapter is
// missing from the run or a picture could not be rendered.
using System.Text.Json;
using System.Text.Json.Nodes;
using PooledHttp;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Notebooks;

string root = WorkshopPaths.Root;
string run = Path.GetFullPath(args.Length > 0 ? args[0] : Path.Combine(root, "artifacts"));
string pages = Path.Combine(root, ChapterRendering.PagesFolder);
string stored = Path.Combine(root, ChapterRendering.NotebooksFolder);
string pictures = Path.Combine(pages, "img");
Directory.CreateDirectory(stored);
Directory.CreateDirectory(pictures);

var written = new HashSet<string>(StringComparer.Ordinal);
int failures = 0;
string scratch = Directory.CreateTempSubdirectory("render-chapters-").FullName;
try
{
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
            string page = Path.Combine(scratch, Path.GetFileNameWithoutExtension(picture) + ".html");
            File.WriteAllText(page, $"<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:0\"><div style=\"display:none\">{PlotlyHtml.Script()}</div>{html}</body></html>");
            string png = Path.Combine(pages, picture);
            (int exit, _, string error, _) = await ChildProcess.RunAsync("bash", [Path.Combine(root, "tools", "render-chart.sh"), page, png, "1000", "560"], TimeSpan.FromMinutes(2));
            if (exit != 0)
            {
                Console.Error.WriteLine($"{name}: {picture} was not rendered: {error.Trim()}");
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
}
finally
{
    Directory.Delete(scratch, recursive: true);
}

return failures == 0 ? 0 : 1;
