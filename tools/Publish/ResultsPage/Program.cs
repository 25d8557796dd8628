using PooledHttp.Publishing;
using System.CommandLine;
using PooledHttp.Tools;
using PooledHttp.Workshop.Notebooks;

// The results page's reference figures, recomputed from the committed reference run. The test
// ReferenceFiguresTests fails until this has been run after the CSVs change.
var command = new RootCommand($"Rewrites the reference figures in {ReferenceFigures.Page} from the committed reference run ({Path.GetRelativePath(WorkshopPaths.Root, ReferenceFigures.ReferenceFolder)}). Takes no arguments.");
command.SetAction(_ =>
{
    string page = Path.Combine(WorkshopPaths.Root, ReferenceFigures.Page);
    File.WriteAllText(page, ReferenceFigures.Update(File.ReadAllText(page), ReferenceFigures.ReferenceFolder));
    Console.WriteLine($"Rewrote the reference figures in {page} from {ReferenceFigures.ReferenceFolder}.");
    return 0;
});
return await ToolCommandLine.InvokeAsync(command, args);
