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
/// Not composed here: the tool's other kernels (F#, PowerShell, HTML, Mermaid, HTTP, ...), its magic commands beyond
/// the C# kernel's own, and the NuGet extension loader (<c>UseNuGetExtensions</c>, which lives only in the tool). The
/// chapters use none of them; a cell that does fails here with the kernel's own message.
/// </remarks>
internal sealed class KernelSession : IDisposable
{
    private readonly CompositeKernel _kernel;
    private readonly CellOutputs _outputs;
    private readonly IDisposable _subscription;

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
        _subscription = _kernel.KernelEvents.Subscribe(new Observer(_outputs.On));
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
    public async Task<(List<CellOutput> Outputs, string? Failure)> RunAsync(string source, int executionCount)
    {
        _outputs.Begin(executionCount);
        KernelCommandResult result = await _kernel.SendAsync(new SubmitCode(source, "csharp")).ConfigureAwait(false);
        string? failure = _outputs.Failure;
        if (failure is null && result.Events.OfType<Microsoft.DotNet.Interactive.Events.CommandFailed>().FirstOrDefault() is { } failed)
        {
            failure = failed.Message; // a failure the event stream did not carry to this session
        }

        return (_outputs.Snapshot(), failure);
    }

    public void Dispose()
    {
        _subscription.Dispose();
        _kernel.Dispose();
    }

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
