using Microsoft.DotNet.Interactive;
using Microsoft.DotNet.Interactive.Commands;
using Microsoft.DotNet.Interactive.CSharp;
using Microsoft.DotNet.Interactive.Formatting;
using Microsoft.DotNet.Interactive.PackageManagement;

namespace NotebookRunner;

/// <summary>
/// One notebook's .NET Interactive C# kernel, in this process, composed as the <c>dotnet-interactive</c> tool composes
/// its C# kernel for Jupyter (dotnet/interactive, <c>src/dotnet-interactive/KernelBuilder.cs</c>): a
/// <see cref="CSharpKernel"/> with <c>#r "nuget:"</c> and <c>#i</c>, the kernel helpers (<c>display</c>, <c>HTML</c>),
/// <c>#!who</c> and value sharing, inside a composite kernel; formatters set up as for a browser front end (HTML by
/// default, strings as plain text: <c>KernelBuilder.SetUpFormatters</c>). Cells are submitted one after another;
/// what the kernel sends is recorded as Jupyter records it (<see cref="CellOutputs"/>).
/// </summary>
/// <remarks>
/// Not composed here, because they live only in the tool or in its Jupyter package (not published): the tool's other
/// kernels (F#, PowerShell, HTML, Mermaid, HTTP, ...), the composite kernel's magic commands (<c>#!time</c>,
/// <c>#!lsmagic</c>, <c>#!about</c>, <c>#!import</c>, <c>#!connect</c>), the Jupyter helpers <c>input()</c> and
/// <c>password()</c>, the loader of kernel extensions from NuGet packages (<c>UseNuGetExtensions</c>), and the script the
/// tool's <c>#!enable-http</c> shows under Jupyter's first cell. The chapters use none of them; a cell that uses a
/// missing magic or helper fails here with the kernel's diagnostic, and a package's kernel extension is not loaded.
/// </remarks>
internal sealed class KernelSession : IDisposable
{
    private readonly CompositeKernel _kernel;
    private readonly CellOutputs _outputs;
    private int _cells;

    /// <param name="live">Where the kernel's outputs are echoed as they come: the runner's console.</param>
    public KernelSession(TextWriter live)
    {
        var csharp = new CSharpKernel()
            .UseNugetDirective((kernel, packages) =>
            {
                // What the tool's own UseNugetDirective does with a restored package: its assemblies become references.
                kernel.AddAssemblyReferences(packages.SelectMany(p => p.AssemblyPaths));
                return Task.CompletedTask;
            })
            .UseKernelHelpers()
            .UseWho()
            .UseValueSharing();
        _kernel = new CompositeKernel();
        _kernel.Add(csharp, ["c#", "C#"]);
        _kernel.DefaultKernelName = csharp.Name;

        Formatter.DefaultMimeType = HtmlFormatter.MimeType;
        Formatter.SetPreferredMimeTypesFor(typeof(string), PlainTextFormatter.MimeType);

        _outputs = new CellOutputs(live);
    }

    /// <summary>The kernels a <c>.dib</c> file may name, as the tool's composite kernel knows them.</summary>
    public static Microsoft.DotNet.Interactive.Documents.KernelInfoCollection DibKernels() =>
    [
        new("csharp", "C#", ["c#", "C#", "cs"]),
        new("fsharp", "F#", ["f#", "F#", "fs"]),
        new("pwsh", "PowerShell", ["powershell"]),
        new("javascript", "JavaScript", ["js"]),
        new("html", "HTML"),
        new("sql", "SQL"),
        new("kql", "KQL"),
        new("mermaid", "Mermaid"),
        new("http", "HTTP"),
        new("value"),
    ];

    /// <summary>Runs one cell's code and returns its outputs, in order, and why it failed (null when it ran).</summary>
    /// <remarks>
    /// As the tool's Jupyter handler (dotnet/interactive, <c>src/Microsoft.DotNet.Interactive.Jupyter/RequestHandlerBase.cs</c>):
    /// the cell's command gets a token, only events of that command and the commands it starts are recorded, and only
    /// while it runs. A command a cell starts on its own (<c>Kernel.Root.SendAsync</c>) is not the cell's, and an event
    /// published after the cell ended is dropped by the kernel itself (<c>KernelInvocationContext.Publish</c>).
    /// The code is sent with no kernel name, so the composite kernel routes it, as Jupyter's request does.
    /// </remarks>
    public async Task<(List<CellOutput> Outputs, string? Failure)> RunAsync(string source, int executionCount)
    {
        var command = new SubmitCode(source);
        string token = $"pooledhttp-runner-cell-{++_cells}";
        command.SetToken(token);
        _outputs.Begin(executionCount);
        using (_kernel.KernelEvents.Subscribe(new Observer(e =>
               {
                   if (e.Command.GetOrCreateToken().StartsWith(token, StringComparison.Ordinal))
                   {
                       _outputs.On(e);
                   }
               })))
        {
            await _kernel.SendAsync(command).ConfigureAwait(false);
        }

        return (_outputs.Snapshot(), _outputs.Failure);
    }

    /// <summary>What the running cell has shown so far: what a front end keeps of a cell that hangs.</summary>
    public List<CellOutput> OutputsSoFar() => _outputs.Snapshot();

    public void Dispose() => _kernel.Dispose();

    private sealed class Observer(Action<Microsoft.DotNet.Interactive.Events.KernelEvent> next) : IObserver<Microsoft.DotNet.Interactive.Events.KernelEvent>
    {
        public void OnCompleted()
        {
        }

        public void OnError(Exception error)
        {
        }

        public void OnNext(Microsoft.DotNet.Interactive.Events.KernelEvent value) => next(value);
    }
}
