using PooledHttp.Workshop.Notebooks;

// The results page's reference figures, recomputed from the committed reference run. The test
// ReferenceFiguresTests fails until this has been run after the CSVs change.
string page = Path.Combine(WorkshopPaths.Root, ReferenceFigures.Page);
File.WriteAllText(page, ReferenceFigures.Update(File.ReadAllText(page), ReferenceFigures.ReferenceFolder));
Console.WriteLine($"Rewrote the reference figures in {page} from {ReferenceFigures.ReferenceFolder}.");
