using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Scripting;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Scripting;

namespace NotebookRunner;

/// <summary>
/// One notebook's C# session, compiled the way the .NET Interactive C# kernel compiles a notebook:
/// cells run one after another in one Roslyn script state, with the kernel's default imports and
/// nothing more, and the kernel helpers brought in by a first submission of
/// <c>using static Microsoft.DotNet.Interactive.Kernel;</c>. There is no globals object, so members
/// of <see cref="object"/> (<c>ReferenceEquals</c>, <c>GetType</c>) are not in scope unqualified.
/// </summary>
internal sealed class ScriptSession
{
    /// <summary>
    /// The kernel's default imports, exactly: <c>CSharpKernel.ScriptOptions</c> in
    /// dotnet/interactive's <c>src/Microsoft.DotNet.Interactive.CSharp/CSharpKernel.cs</c>.
    /// Not System.IO, not System.Net.Http: a notebook names those itself.
    /// </summary>
    public static readonly IReadOnlyList<string> KernelImports =
        ["System", "System.Text", "System.Collections", "System.Collections.Generic", "System.Threading.Tasks", "System.Linq"];

    /// <summary>What <c>CSharpKernelExtensions.UseKernelHelpers</c> submits before the first cell.</summary>
    public const string KernelHelpersSubmission = "using static Microsoft.DotNet.Interactive.Kernel;";

    private readonly ScriptOptions _options;
    private ScriptState<object>? _state;

    public ScriptSession(string notebookDirectory) => _options = ScriptOptions.Default
        // #r and #load resolve against the kernel's working directory, the notebook's folder.
        .WithMetadataResolver(ScriptMetadataResolver.Default.WithBaseDirectory(notebookDirectory))
        .WithSourceResolver(new SourceFileResolver(ImmutableArray<string>.Empty, notebookDirectory))
        .WithReferences(References())
        .WithImports(KernelImports)
        .WithLanguageVersion(LanguageVersion.Latest)
        .WithEmitDebugInformation(false);

    /// <summary>Runs one cell's code and returns its outputs, in order; an error output means the cell failed.</summary>
    public async Task<List<CellOutput>> RunAsync(string source, int executionCount, TextWriter liveConsole)
    {
        CellOutputs outputs = CellOutputs.Begin(liveConsole);
        if (Unsupported(source) is { } unsupported)
        {
            outputs.Add(CellOutput.Error("UnsupportedDirective", unsupported, unsupported));
            return outputs.Snapshot();
        }

        string code = string.Join('\n', source.Split('\n').Where(l => !l.TrimStart().StartsWith("#!csharp", StringComparison.Ordinal)));
        TextWriter originalOut = Console.Out;
        TextWriter originalError = Console.Error;
        using TextWriter stdout = outputs.Writer("stdout");
        using TextWriter stderr = outputs.Writer("stderr");
        Console.SetOut(stdout);
        Console.SetError(stderr);
        try
        {
            _state ??= await CSharpScript.RunAsync(KernelHelpersSubmission, _options).ConfigureAwait(false);
            Script<object> cell = _state.Script.ContinueWith(code, _options);

            // Compiled as the kernel compiles a cell: no nullable context (so `string?` warns CS8632), and the
            // warnings reported beside the cell, not as its outputs, as the kernel's DiagnosticsProduced events are.
            ImmutableArray<Diagnostic> diagnostics = cell.Compile();
            if (diagnostics.Any(d => d.Severity == DiagnosticSeverity.Error))
            {
                throw new CompilationErrorException("The cell does not compile.", diagnostics.Where(d => d.Severity == DiagnosticSeverity.Error).ToImmutableArray());
            }

            foreach (Diagnostic warning in diagnostics.Where(d => d.Severity == DiagnosticSeverity.Warning))
            {
                liveConsole.WriteLine($"   [warning] {warning}");
            }

            _state = await cell.RunFromAsync(_state).ConfigureAwait(false);
            if (EndsInExpression(code))
            {
                // The kernel publishes a return value only for a trailing expression, as here.
                outputs.Add(CellOutput.Result(_state.ReturnValue, executionCount));
            }
        }
        catch (CompilationErrorException e)
        {
            string message = string.Join(Environment.NewLine, e.Diagnostics.Select(d => d.ToString()));
            outputs.Add(CellOutput.Error("CompilationError", message, message));
        }
        catch (Exception e)
        {
            Exception shown = e is AggregateException { InnerExceptions.Count: 1 } a ? a.InnerException! : e;
            outputs.Add(CellOutput.Error(shown.GetType().Name, shown.Message, shown.ToString()));
        }
        finally
        {
            Console.SetOut(originalOut);
            Console.SetError(originalError);
        }

        return outputs.Snapshot();
    }

    /// <summary>
    /// A trailing expression without a semicolon is the submission's result, which the kernel shows
    /// (it asks Roslyn's internal <c>Script.HasReturnValue</c>; this is the same rule, read off the syntax).
    /// </summary>
    private static bool EndsInExpression(string code)
    {
        var tree = CSharpSyntaxTree.ParseText(code, new CSharpParseOptions(LanguageVersion.Latest, kind: SourceCodeKind.Script));
        return tree.GetCompilationUnitRoot().Members.LastOrDefault() is GlobalStatementSyntax { Statement: ExpressionStatementSyntax { SemicolonToken.IsMissing: true } };
    }

    private static string? Unsupported(string source)
    {
        foreach (string raw in source.Split('\n'))
        {
            string line = raw.Trim();
            if (line.StartsWith("#r \"nuget:", StringComparison.OrdinalIgnoreCase))
            {
                return $"'{line}': the headless runner does not restore NuGet packages; reference the built helpers with #r \"path\" instead.";
            }

            if (line.StartsWith("#!", StringComparison.Ordinal) && !line.StartsWith("#!csharp", StringComparison.Ordinal))
            {
                return $"'{line}': magic commands other than #!csharp are not supported by the headless runner.";
            }
        }

        return null;
    }

    /// <summary>
    /// The shared framework's assemblies (the kernel runs on it, so a fully qualified
    /// <c>System.Net.Http.HttpClient</c> compiles there), the assembly of <c>IHtmlContent</c> (the
    /// kernel's <c>HTML()</c> returns one) and this runner, which holds the kernel helpers.
    /// </summary>
    private static IEnumerable<MetadataReference> References()
    {
        string framework = Path.GetDirectoryName(typeof(object).Assembly.Location)!;
        IEnumerable<string> paths = ((string?)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES") ?? string.Empty)
            .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Where(p => string.Equals(Path.GetDirectoryName(p), framework, StringComparison.Ordinal))
            .Where(p => !Path.GetFileName(p).StartsWith("Microsoft.VisualBasic", StringComparison.Ordinal))
            .Append(typeof(Microsoft.AspNetCore.Html.IHtmlContent).Assembly.Location)
            .Append(typeof(Microsoft.DotNet.Interactive.Kernel).Assembly.Location); // the helpers alone, not the runner
        return paths.Select(p => MetadataReference.CreateFromFile(p));
    }
}
