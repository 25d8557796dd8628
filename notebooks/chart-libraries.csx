// Loaded by workshop.csx, which calls LoadChartLibrariesTogether with the folder the helpers are built into.
//
// Plotly.NET is written in F#, and it and the F# libraries it uses (Giraffe.ViewEngine, DynamicObj) must all
// run on one FSharp.Core. The kernel already holds an FSharp.Core of its own (10.0, for its F# kernel), older
// than the 10.1 Plotly.NET was built against: left to the host, Giraffe binds to the kernel's copy, Plotly.NET
// to the 10.1 beside it, and the first chart fails with MissingMethodException. So they load here, together,
// into one load context that gives every one of them the FSharp.Core beside them; any other
// context asking for them gets these. The helpers never name an FSharp.Core type, so nothing else meets a second copy.
static void LoadChartLibrariesTogether(string folder)
{
    const string Installed = "pooledhttp.chart-libraries";
    if (System.AppDomain.CurrentDomain.GetData(Installed) is not null)
    {
        return;
    }

    var context = new ChartLibraries(System.IO.Path.GetFullPath(folder));
    System.Runtime.Loader.AssemblyLoadContext.Default.Resolving += (_, name) => context.Has(name) ? context.LoadFromAssemblyName(name) : null;
    System.AppDomain.CurrentDomain.SetData(Installed, context);
}

// The load context: these libraries, and their FSharp.Core, from one folder; everything else as the host has it.
sealed class ChartLibraries : System.Runtime.Loader.AssemblyLoadContext
{
    private static readonly string[] Together = ["FSharp.Core", "Plotly.NET", "Plotly.NET.CSharp", "Giraffe.ViewEngine", "DynamicObj", "Fable.Core"];
    private readonly string _folder;

    public ChartLibraries(string folder) : base("chart libraries")
    {
        _folder = folder;
        // What the host does not have either (Newtonsoft.Json, in the runner) comes from the same folder.
        Resolving += (self, name) => System.IO.File.Exists(PathOf(name)) ? self.LoadFromAssemblyPath(PathOf(name)) : null;
    }

    public bool Has(System.Reflection.AssemblyName name) => Together.Contains(name.Name) && System.IO.File.Exists(PathOf(name));

    protected override System.Reflection.Assembly Load(System.Reflection.AssemblyName name)
    {
        if (!Has(name))
        {
            return null; // the host's first: the runtime, ASP.NET Core
        }

        return Assemblies.FirstOrDefault(a => a.GetName().Name == name.Name) ?? LoadFromAssemblyPath(PathOf(name));
    }

    private string PathOf(System.Reflection.AssemblyName name) => System.IO.Path.Combine(_folder, name.Name + ".dll");
}
