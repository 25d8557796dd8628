// Loaded by workshop.csx, which calls LoadChartLibrariesTogether with the folder the helpers are built into.
//
// Plotly.NET is written in F#, and it and the F# libraries it uses (Giraffe.ViewEngine, DynamicObj) must all
// run on one FSharp.Core. The kernel already holds an FSharp.Core of its own (10.0, for its F# kernel), older
// than the 10.1 Plotly.NET was built against: left to the host, Giraffe binds to the kernel's copy, Plotly.NET
// to the 10.1 beside it, and the first chart fails with MissingMethodException. So they load here, together,
// into one load context that gives every one of them the FSharp.Core beside them; the default
// context, asked for one of them (by the kit, by a cell), hands over these. The helpers never name an FSharp.Core type, so nothing else meets a second copy.
//
// Which libraries go together is read from the assemblies in the folder, not from a list: FSharp.Core and every
// assembly that references it (Plotly.NET, Plotly.NET.CSharp, Giraffe.ViewEngine, DynamicObj, Fable.Core today), so
// a Plotly.NET that brings one more F# library takes it along. The kit references Plotly.NET but never FSharp.Core
// (a test holds it to that), so it stays with the host. This file is the one place where the kernel's FSharp.Core
// matters.
static void LoadChartLibrariesTogether(string folder)
{
    const string Installed = "pooledhttp.chart-libraries";
    if (System.AppDomain.CurrentDomain.GetData(Installed) is not null)
    {
        return;
    }

    var context = new ChartLibraries(System.IO.Path.GetFullPath(folder));

    // A library of the set that the host loaded first (another #r, a package) would bind to the host's FSharp.Core
    // and defeat the context: say so now rather than at the first chart.
    string[] early = System.AppDomain.CurrentDomain.GetAssemblies()
        .Where(a => a.GetName().Name != "FSharp.Core" && context.Has(a.GetName()))
        .Select(a => a.GetName().Name).ToArray();
    if (early.Length > 0)
    {
        throw new InvalidOperationException($"{string.Join(", ", early)} was loaded before the chart libraries, so the charts would run on the kernel's FSharp.Core and fail. Restart the kernel and run the chapter from its first cell, before any #r of your own.");
    }

    System.Runtime.Loader.AssemblyLoadContext.Default.Resolving += (_, name) => context.Has(name) ? context.LoadFromAssemblyName(name) : null;
    System.AppDomain.CurrentDomain.SetData(Installed, context);
}

// The load context: FSharp.Core and the libraries built on it, from one folder; everything else as the host has it.
sealed class ChartLibraries : System.Runtime.Loader.AssemblyLoadContext
{
    private readonly string _folder;
    private readonly HashSet<string> _together;

    public ChartLibraries(string folder) : base("chart libraries")
    {
        _folder = folder;
        _together = OnFSharpCore(folder);
        // What the host does not have either (Newtonsoft.Json, in the runner) comes from the same folder.
        Resolving += (self, name) => System.IO.File.Exists(PathOf(name)) ? self.LoadFromAssemblyPath(PathOf(name)) : null;
    }

    public IReadOnlyCollection<string> Together => _together;

    public bool Has(System.Reflection.AssemblyName name) => _together.Contains(name.Name) && System.IO.File.Exists(PathOf(name));

    protected override System.Reflection.Assembly Load(System.Reflection.AssemblyName name)
    {
        if (!Has(name))
        {
            return null; // the host's first: the runtime, ASP.NET Core
        }

        return Assemblies.FirstOrDefault(a => a.GetName().Name == name.Name) ?? LoadFromAssemblyPath(PathOf(name));
    }

    private string PathOf(System.Reflection.AssemblyName name) => System.IO.Path.Combine(_folder, name.Name + ".dll");

    // FSharp.Core and every assembly of the folder that references it, read from metadata without loading anything.
    private static HashSet<string> OnFSharpCore(string folder)
    {
        if (!System.IO.File.Exists(System.IO.Path.Combine(folder, "FSharp.Core.dll")))
        {
            throw new InvalidOperationException($"There is no FSharp.Core.dll in {folder}, so the charts cannot load. Run the chapter's first cell again, which builds the helpers there; if it still fails, build them from a terminal: dotnet build helpers/PooledHttp.Workshop -c Release.");
        }

        var together = new HashSet<string>(StringComparer.Ordinal) { "FSharp.Core" };
        foreach (string path in System.IO.Directory.EnumerateFiles(folder, "*.dll"))
        {
            try
            {
                using var stream = System.IO.File.OpenRead(path);
                using var pe = new System.Reflection.PortableExecutable.PEReader(stream);
                if (!pe.HasMetadata)
                {
                    continue;
                }

                var reader = System.Reflection.Metadata.PEReaderExtensions.GetMetadataReader(pe);
                if (reader.AssemblyReferences.Any(handle => reader.GetString(reader.GetAssemblyReference(handle).Name) == "FSharp.Core"))
                {
                    together.Add(System.IO.Path.GetFileNameWithoutExtension(path));
                }
            }
            catch (BadImageFormatException)
            {
                // a native library: not .NET, nothing to bind
            }
        }

        return together;
    }
}
