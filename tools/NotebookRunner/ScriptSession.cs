using System.Collections.Immutable;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Scripting;
using Microsoft.CodeAnalysis.Scripting;

namespace NotebookRunner;

/// <summary>
/// One notebook's C# session: cells run one after another in the same Roslyn script state, so a
/// variable or function declared in one cell is visible in the next, as in the .NET Interactive kernel.
/// </summary>
internal sealed class ScriptSession(string notebookDirectory)
{
    /// <summary>Namespaces every cell sees, as in the kernel's C# defaults.</summary>
    private static readonly string[] DefaultImports = ["System", "System.IO", "System.Linq", "System.Text", "System.Collections.Generic", "System.Threading.Tasks", "System.Net.Http"];

    private readonly NotebookGlobals _globals = new();
    private readonly ScriptOptions _options = ScriptOptions.Default
        .WithFilePath(Path.Combine(notebookDirectory, "notebook.csx"))
        .WithMetadataResolver(ScriptMetadataResolver.Default.WithBaseDirectory(notebookDirectory))
        .WithSourceResolver(new SourceFileResolver(ImmutableArray<string>.Empty, notebookDirectory))
        .WithReferences(FrameworkReferences())
        .WithImports(DefaultImports)
        .WithLanguageVersion(Microsoft.CodeAnalysis.CSharp.LanguageVersion.Latest)
        .WithEmitDebugInformation(false);

    private ScriptState<object>? _state;

    /// <summary>Runs one cell's code and returns its outputs; an error output means the cell failed.</summary>
    public async Task<List<CellOutput>> RunAsync(string source, TextWriter liveConsole)
    {
        var outputs = new List<CellOutput>();
        string? unsupported = Unsupported(source);
        if (unsupported is not null)
        {
            outputs.Add(CellOutput.Error("UnsupportedDirective", unsupported, unsupported));
            return outputs;
        }

        string code = string.Join('\n', source.Split('\n').Where(l => !l.TrimStart().StartsWith("#!csharp", StringComparison.Ordinal)));
        var captured = new StringBuilder();
        TextWriter originalOut = Console.Out;
        TextWriter originalError = Console.Error;
        using var tee = new TeeWriter(captured, liveConsole);
        Console.SetOut(tee);
        Console.SetError(tee);
        _globals.Outputs.Clear();
        try
        {
            _state = _state is null
                ? await CSharpScript.RunAsync(code, _options, _globals, typeof(NotebookGlobals)).ConfigureAwait(false)
                : await _state.ContinueWithAsync(code, _options).ConfigureAwait(false);
            Flush();
            if (_state.ReturnValue is { } value)
            {
                outputs.Add(CellOutput.Display(value, "execute_result"));
            }
        }
        catch (CompilationErrorException e)
        {
            Flush();
            string message = string.Join(Environment.NewLine, e.Diagnostics.Select(d => d.ToString()));
            outputs.Add(CellOutput.Error("CompilationError", message, message));
        }
        catch (Exception e)
        {
            Flush();
            Exception shown = e is AggregateException { InnerExceptions.Count: 1 } a ? a.InnerException! : e;
            outputs.Add(CellOutput.Error(shown.GetType().Name, shown.Message, shown.ToString()));
        }
        finally
        {
            Console.SetOut(originalOut);
            Console.SetError(originalError);
        }

        return outputs;

        void Flush()
        {
            tee.Flush();
            if (captured.Length > 0)
            {
                outputs.Add(CellOutput.Stream("stdout", captured.ToString()));
                captured.Clear();
            }

            outputs.AddRange(_globals.Outputs);
            _globals.Outputs.Clear();
        }
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

    /// <summary>Every assembly of the shared framework, as the kernel references them.</summary>
    private static IEnumerable<MetadataReference> FrameworkReferences()
    {
        string framework = Path.GetDirectoryName(typeof(object).Assembly.Location)!;
        return ((string?)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES") ?? string.Empty)
            .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Where(p => string.Equals(Path.GetDirectoryName(p), framework, StringComparison.Ordinal))
            .Where(p => !Path.GetFileName(p).StartsWith("Microsoft.VisualBasic", StringComparison.Ordinal))
            .Select(p => MetadataReference.CreateFromFile(p));
    }

    /// <summary>Writes to the captured output and, live, to the runner's console.</summary>
    private sealed class TeeWriter(StringBuilder captured, TextWriter live) : TextWriter
    {
        public override Encoding Encoding => Encoding.UTF8;

        public override void Write(char value)
        {
            lock (captured)
            {
                captured.Append(value);
            }

            live.Write(value);
        }

        public override void Write(string? value)
        {
            lock (captured)
            {
                captured.Append(value);
            }

            live.Write(value);
        }

        public override void WriteLine(string? value) => Write(value + Environment.NewLine);
    }
}
