// dotnet run --project tools/Publish/GenerateApps
//
// Writes every chapter as a file-based app, notebooks/apps/NN-name.cs, from its notebook (the notebook stays the one
// source), and says which changed. Nothing is written when a cell cannot be translated: the message says which and why.
using PooledHttp.Publishing;

string root = PooledHttp.Workshop.Notebooks.WorkshopPaths.Root;
var apps = new List<(string Path, string Text)>();
try
{
    apps.AddRange(ChapterApps.Notebooks(root).Select(notebook => (ChapterApps.AppPath(root, notebook), ChapterApps.Generate(notebook))));
}
catch (InvalidDataException e)
{
    Console.Error.WriteLine(e.Message);
    return 1;
}

Directory.CreateDirectory(Path.Combine(root, ChapterApps.Folder));
foreach ((string path, string text) in apps)
{
    bool same = File.Exists(path) && File.ReadAllText(path) == text;
    if (!same)
    {
        File.WriteAllText(path, text);
    }

    Console.WriteLine($"{(same ? "unchanged" : "written  ")} {Path.GetRelativePath(root, path)}");
}

return 0;
