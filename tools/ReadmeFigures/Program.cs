using PooledHttp.Workshop.Notebooks;

// The README's reference figures, recomputed from the committed reference run. The test
// ReferenceFiguresTests fails until this has been run after the CSVs change.
string readme = Path.Combine(WorkshopPaths.Root, "README.md");
File.WriteAllText(readme, ReferenceFigures.Update(File.ReadAllText(readme), ReferenceFigures.ReferenceFolder));
Console.WriteLine($"Rewrote the reference figures in {readme} from {ReferenceFigures.ReferenceFolder}.");
