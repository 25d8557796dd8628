// The first cell of every notebook loads this file with `#load "workshop.csx"`. It builds the workshop
// kit (helpers/PooledHttp.Workshop, in Release) and with it the library (helpers/PooledHttp) into a
// folder of their own, artifacts/notebook-bin, which the notebook's next cell references with #r.
// BenchmarkDotNet builds them again under helpers/ for its benchmark process, so it never overwrites a
// DLL this kernel holds open (Windows locks loaded DLLs).
//
// It works the same in the .NET Interactive kernel and in the headless runner: a #load'ed file's
// functions and #r reach later cells, its `using` directives do not, so it names its types in full.

static void BuildWorkshopHelpers()
{
    if (System.AppDomain.CurrentDomain.GetAssemblies().Any(a => a.GetName().Name == "PooledHttp.Workshop"))
    {
        Console.WriteLine("The helpers are already loaded in this kernel: nothing to build. Restart the kernel to pick up changes to them.");
        return;
    }

    Console.WriteLine("Building the helpers into artifacts/notebook-bin (the first time takes about half a minute)...");
    var start = new System.Diagnostics.ProcessStartInfo("dotnet", "build ../helpers/PooledHttp.Workshop/PooledHttp.Workshop.csproj -c Release -f net10.0 -o ../artifacts/notebook-bin --nologo -v quiet")
    {
        RedirectStandardOutput = true,
        RedirectStandardError = true,
    };
    using var build = System.Diagnostics.Process.Start(start)!;
    Task<string> output = build.StandardOutput.ReadToEndAsync();
    Task<string> error = build.StandardError.ReadToEndAsync();
    build.WaitForExit();
    if (build.ExitCode != 0)
    {
        throw new InvalidOperationException("Building the helpers failed:\n" + output.Result + error.Result);
    }

    Console.WriteLine("Helpers built. The next cell loads them.");
}

BuildWorkshopHelpers();
