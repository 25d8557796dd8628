// The first cell of every notebook loads this file with `#load "workshop.csx"`. It builds the kit (the
// helpers/PooledHttp.Workshop* assemblies, through PooledHttp.Workshop.Exercising, which references the others;
// in Release) and with it the library (helpers/PooledHttp) into a folder of their own, artifacts/notebook-bin,
// which kit.csx, loaded by the next cell, references.
// BenchmarkDotNet builds them again under helpers/ for its benchmark process, so it never overwrites a
// DLL this kernel holds open (Windows locks loaded DLLs).
//
// It works the same in the .NET Interactive kernel and in the headless runner: a #load'ed file's
// functions and #r reach later cells, its `using` directives do not, so it names its types in full.
//
// It also loads the chart libraries the way both hosts can use them (chart-libraries.csx says why).
//
// A build that would change nothing still costs MSBuild about six seconds per notebook. After each
// build this file records every input (each file under helpers/ outside bin/ and obj/, and the
// repository's build settings) with its size and time; when the record still matches, it skips the build. Any edit, added or deleted file changes the record and builds. It is the
// kit's own rule (BuildOutput in helpers/PooledHttp.Workshop/Building), copied because it runs before
// the kit exists; a test holds the two to the same record. Delete artifacts/notebook-bin to force a
// build (after changing the SDK, for example).

// No cell should show warning CS1701 ("Assuming assembly reference ... matches identity ..."): the kernel compiles
// cells against the runtime's own assemblies, with none of the NoWarn 1701 a project has, and reports it with no
// source location, so no #pragma can hide it. Its two causes are removed where they start: kit.csx declares HTML(...)
// (the kernel's names an older Microsoft.AspNetCore.Html.Abstractions), and the build below (-p:NotebookBin=true)
// puts the netstandard2.1 builds of two libraries the cells use in artifacts/notebook-bin (PooledHttp.Workshop.Exercising.csproj
// says why).

#load "chart-libraries.csx"

static void BuildWorkshopHelpers()
{
    if (System.AppDomain.CurrentDomain.GetAssemblies().Any(a => a.GetName().Name == "PooledHttp.Workshop"))
    {
        Console.WriteLine("The helpers are already loaded in this kernel: nothing to build. Restart the kernel to pick up changes to them.");
        return;
    }

    string record = WorkshopBuildInputs("..");
    string recordPath = "../artifacts/notebook-bin/build-inputs.txt";
    bool Current() => System.IO.File.Exists("../artifacts/notebook-bin/PooledHttp.Workshop.Exercising.dll") && System.IO.File.Exists(recordPath) && System.IO.File.ReadAllText(recordPath) == record;
    if (Current())
    {
        Console.WriteLine("The helpers in artifacts/notebook-bin are up to date with their sources: build skipped.");
        return;
    }

    const string what = "the kit for the notebooks (notebooks/workshop.csx)";
    using var held = TakeWorkshopBuildLock(what);
    if (Current())
    {
        System.IO.File.Delete(WorkshopBuildLockPath + ".holder");
        Console.WriteLine("The helpers in artifacts/notebook-bin were built while this notebook waited: build skipped.");
        return;
    }

    Console.WriteLine("Building the helpers into artifacts/notebook-bin (the first time takes about half a minute)...");
    var start = new System.Diagnostics.ProcessStartInfo("dotnet", "build ../helpers/PooledHttp.Workshop.Exercising/PooledHttp.Workshop.Exercising.csproj -c Release -f net10.0 -o ../artifacts/notebook-bin -p:NotebookBin=true --nologo -v quiet")
    {
        RedirectStandardOutput = true,
        RedirectStandardError = true,
    };
    using var build = System.Diagnostics.Process.Start(start)!;
    Task<string> output = build.StandardOutput.ReadToEndAsync();
    Task<string> error = build.StandardError.ReadToEndAsync();
    if (!build.WaitForExit(WorkshopBuildTimeout))
    {
        build.Kill(entireProcessTree: true);
        throw new TimeoutException($"Building {what} took longer than {WorkshopBuildTimeout.TotalMinutes:0} minutes and was stopped. Run the cell again; if it stops again, build from a terminal: dotnet build helpers/PooledHttp.Workshop.Exercising -c Release.");
    }

    if (build.ExitCode != 0)
    {
        throw new InvalidOperationException("Building the helpers failed:\n" + output.Result + error.Result);
    }

    System.IO.File.WriteAllText(recordPath, record);
    System.IO.File.Delete(WorkshopBuildLockPath + ".holder");
    Console.WriteLine("Helpers built. The next cell loads them.");
}

// Every build of the kit's projects takes one machine-wide lock, since they write the same helpers/*/obj folders:
// the kit's BuildLock (helpers/PooledHttp.Workshop/Building), copied here for the same reason as the record below.
static readonly TimeSpan WorkshopBuildTimeout = TimeSpan.FromMinutes(10);
static readonly string WorkshopBuildLockPath = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "pooledhttp", "build.lock");

static System.IO.FileStream TakeWorkshopBuildLock(string what)
{
    System.IO.Directory.CreateDirectory(System.IO.Path.GetDirectoryName(WorkshopBuildLockPath)!);
    var waited = System.Diagnostics.Stopwatch.StartNew();
    bool told = false;
    while (true)
    {
        try
        {
            var held = new System.IO.FileStream(WorkshopBuildLockPath, System.IO.FileMode.OpenOrCreate, System.IO.FileAccess.ReadWrite, System.IO.FileShare.None);
            System.IO.File.WriteAllText(WorkshopBuildLockPath + ".holder", $"{what} in {System.IO.Path.GetFullPath("..")} (process {Environment.ProcessId}, since {DateTime.Now:HH:mm:ss})");
            return held;
        }
        catch (System.IO.IOException) when (waited.Elapsed < WorkshopBuildTimeout)
        {
            if (!told)
            {
                Console.WriteLine($"{what}: waiting for another build to finish: {WorkshopBuildHolder()}");
                told = true;
            }

            System.Threading.Thread.Sleep(200);
        }
        catch (System.IO.IOException)
        {
            throw new TimeoutException($"{what}: another build held {WorkshopBuildLockPath} for longer than {WorkshopBuildTimeout.TotalMinutes:0} minutes: {WorkshopBuildHolder()}. If no build is running, delete that file.");
        }
    }
}

static string WorkshopBuildHolder()
{
    try
    {
        string holder = WorkshopBuildLockPath + ".holder";
        return System.IO.File.Exists(holder) ? System.IO.File.ReadAllText(holder).Trim() : "a build that did not say what it builds";
    }
    catch (System.IO.IOException)
    {
        return "a build that did not say what it builds";
    }
}

// One line per input: its path relative to the repository root, its size and its last write time.
// Read before the build, so an edit made while it runs is seen next time.
static string WorkshopBuildInputs(string root)
{
    char separator = System.IO.Path.DirectorySeparatorChar;
    var sources = System.IO.Directory.EnumerateFiles(System.IO.Path.Combine(root, "helpers"), "*", System.IO.SearchOption.AllDirectories)
        .Where(path => !path.Contains($"{separator}bin{separator}") && !path.Contains($"{separator}obj{separator}"));
    var settings = new[] { "Directory.Build.props", "Directory.Packages.props", "global.json", "NuGet.config" }
        .Select(file => System.IO.Path.Combine(root, file)).Where(System.IO.File.Exists);
    return string.Join("\n", sources.Concat(settings)
        .Select(path => (Relative: System.IO.Path.GetRelativePath(root, path).Replace(separator, '/'), File: new System.IO.FileInfo(path)))
        .OrderBy(input => input.Relative, StringComparer.Ordinal)
        .Select(input => $"{input.Relative}|{input.File.Length}|{input.File.LastWriteTimeUtc.Ticks}"));
}

BuildWorkshopHelpers();
LoadChartLibrariesTogether("../artifacts/notebook-bin");
