using System.Globalization;
using System.Text;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace PooledHttp.Publishing;

/// <summary>
/// Each chapter as a .NET file-based app, <c>notebooks/apps/NN-name.cs</c>, written from its notebook, which stays
/// the one source: its markdown cells as comments, its code cells in order in one top-level program, its setup cells
/// as a <c>#:project</c> directive on the kit. The kit's <c>ChapterApp</c> stands in for the notebook host
/// (<c>display</c>, <c>HTML</c>, the working folder). A cell this cannot translate faithfully stops the generation with
/// what to change, rather than giving an app that fails to build or does something else than the notebook.
/// </summary>
public static partial class ChapterApps
{
    /// <summary>The apps' folder, relative to the repository root.</summary>
    public const string Folder = "notebooks/apps";

    /// <summary>The command that writes the apps again, for messages.</summary>
    public const string Command = "dotnet run --project tools/Publish/GenerateApps";

    /// <summary>
    /// The .NET Interactive C# kernel's own imports (its <c>CSharpKernel</c>), which every cell compiles with; an app
    /// turns the SDK's implicit ones off (notebooks/apps/Directory.Build.props) and has these instead, so a name means
    /// in the app what it means in the cell.
    /// </summary>
    private static readonly string[] KernelImports = ["System", "System.Text", "System.Collections", "System.Collections.Generic", "System.Threading.Tasks", "System.Linq"];

    /// <summary>Names the app itself declares or imports (<c>ChapterApp</c>'s, and the program's <c>args</c>): a cell may not declare them.</summary>
    private static readonly string[] Reserved = ["args", "Start", "Cell", "display", "HTML"];

    /// <summary>The chapters, by notebook path, in reading order.</summary>
    public static IReadOnlyList<string> Notebooks(string root)
        => [.. Directory.EnumerateFiles(Path.Combine(root, "notebooks"), "*.ipynb").Order(StringComparer.Ordinal)];

    /// <summary>Where the app of <paramref name="notebook"/> (a path or a name) goes.</summary>
    public static string AppPath(string root, string notebook)
        => Path.Combine(root, Folder, Path.GetFileNameWithoutExtension(notebook) + ".cs");

    /// <summary>The app of the notebook at <paramref name="notebookPath"/>, as text.</summary>
    /// <exception cref="InvalidDataException">A cell the app cannot hold as the notebook runs it; the message names the cell and why.</exception>
    public static string Generate(string notebookPath)
    {
        string name = Path.GetFileNameWithoutExtension(notebookPath);
        var notebook = (JsonObject)JsonNode.Parse(File.ReadAllText(notebookPath))!;
        List<JsonObject> cells = [.. ((JsonArray)notebook["cells"]!).OfType<JsonObject>()];

        var usings = new List<string>();
        var body = new StringBuilder();
        var types = new StringBuilder();
        var declared = new Dictionary<string, int>(StringComparer.Ordinal);
        bool kit = false;
        for (int i = 0; i < cells.Count; i++)
        {
            int number = i + 1; // as the runner counts: every cell, from 1
            string source = Source(cells[i]).ReplaceLineEndings("\n");
            string where = $"notebooks/{name}.ipynb, cell {number}";
            if ((string?)cells[i]["cell_type"] == "markdown")
            {
                body.Append(Comment(source)).Append('\n');
                continue;
            }

            if ((string?)cells[i]["cell_type"] != "code" || string.IsNullOrWhiteSpace(source))
            {
                continue; // raw cells and blank code cells: the runner sends neither to the kernel
            }

            string language = (string?)cells[i]["metadata"]?["polyglot_notebook"]?["kernelName"] ?? (string?)cells[i]["metadata"]?["dotnet_interactive"]?["language"] ?? "csharp";
            if (language is not ("csharp" or "C#"))
            {
                throw Refuse(where, $"its language is '{language}'; an app holds C# only");
            }

            (string code, bool setup) = Directives(source, where, ref kit);
            Cell cell = Translate(code, where);
            foreach (string u in cell.Usings.Where(u => !usings.Contains(u)))
            {
                usings.Add(u);
            }

            foreach (string local in cell.Declares)
            {
                if (Reserved.Contains(local))
                {
                    throw Refuse(where, $"it declares '{local}', a name the app itself uses (ChapterApp's, or the program's args): rename it in the notebook");
                }

                if (declared.TryGetValue(local, out int earlier))
                {
                    throw Refuse(where, $"it declares '{local}' again (cell {earlier} declared it first): a notebook may, one top-level program may not. Rename one of them in the notebook");
                }

                declared[local] = number;
            }

            foreach (string type in cell.Types)
            {
                types.Append(CultureInfo.InvariantCulture, $"// Declared in cell {number}; a program's types follow its statements.\n").Append(type).Append("\n\n");
            }

            if (setup && !cell.HasCode)
            {
                // Its comments, if any, speak of the notebook's setup, which the app does not have: said once, here.
                body.Append(CultureInfo.InvariantCulture, $"// Cell {number}, the notebook's setup ({SetupWhat(source)}): the #:project line at the top does it here.\n\n");
                continue;
            }

            body.Append(CultureInfo.InvariantCulture, $"Cell({number});\n").Append(cell.Statements).Append('\n');
            if (Nullable().IsMatch(cell.Statements))
            {
                body.Append("#nullable restore // the kernel's #nullable reaches the end of its cell only\n");
            }

            body.Append('\n');
        }

        if (!kit)
        {
            throw Refuse($"notebooks/{name}.ipynb", "no cell loads kit.csx, so the app would not know which kit to reference");
        }

        return Header(name) + Imports(usings) + $"Start(\"{name}\", args);\n\n" + body.ToString().TrimEnd() + "\n" + (types.Length > 0 ? "\n" + types.ToString().TrimEnd() + "\n" : string.Empty);
    }

    private static string Header(string name) =>
        $"""
        // Chapter {name} as a .NET file-based app, written from notebooks/{name}.ipynb by `{Command}`.
        // Do not edit it: edit the notebook and run that command again (a test fails while the two differ).
        //
        // Run it from anywhere in the clone:  dotnet run notebooks/apps/{name}.cs          (the quick profile: add -- --quick)
        // It builds in Release, as the runner builds the kit (notebooks/apps/Directory.Build.props says how), and runs the
        // notebook's code cells in order; each starts at its Cell(n) line, n as the notebook and the runner count cells.
        // display(...) prints tables as text and writes each chart as a page of its own, whose path it prints.
        // docs/apps.md: debugging it, and what it does not do.
        #:project ../../helpers/PooledHttp.Workshop.Exercising/PooledHttp.Workshop.Exercising.csproj


        """.ReplaceLineEndings("\n");

    private static string Imports(List<string> usings)
    {
        var text = new StringBuilder("// The kernel's imports, then the cells' own.\n");
        foreach (string import in KernelImports)
        {
            text.Append(CultureInfo.InvariantCulture, $"using {import};\n");
        }

        foreach (string u in usings.Where(u => !KernelImports.Any(k => u == $"using {k};")))
        {
            text.Append(u).Append('\n');
        }

        return text.Append("using static PooledHttp.Workshop.Notebooks.ChapterApp; // display(...), HTML(...), Start, Cell\n\n").ToString();
    }

    /// <summary>
    /// The cell's code without its host directives. <c>#load "workshop.csx"</c> and <c>#load "kit.csx"</c> are the
    /// setup (the kit, built and referenced), which the app's <c>#:project</c> line does; any other directive of the
    /// host (<c>#r</c>, another <c>#load</c>, a <c>#!</c> magic command) has no faithful equivalent here and is refused.
    /// </summary>
    private static (string Code, bool Setup) Directives(string source, string where, ref bool kit)
    {
        var kept = new List<string>();
        bool setup = false;
        foreach (string line in source.Split('\n'))
        {
            string trimmed = line.Trim();
            if (trimmed is "#load \"workshop.csx\"" or "#load \"kit.csx\"")
            {
                setup = true;
                kit |= trimmed.Contains("kit.csx", StringComparison.Ordinal);
                continue;
            }

            if (trimmed.StartsWith("#!", StringComparison.Ordinal) || trimmed.StartsWith("#load", StringComparison.Ordinal) || trimmed.StartsWith("#r ", StringComparison.Ordinal) || trimmed.StartsWith("#i ", StringComparison.Ordinal))
            {
                throw Refuse(where, $"'{trimmed}' is a directive of the notebook host with no equivalent in an app: put what it loads in the kit (notebooks/kit.csx, helpers/)");
            }

            kept.Add(line);
        }

        return (string.Join('\n', kept), setup);
    }

    private static string SetupWhat(string source) => source.Contains("kit.csx", StringComparison.Ordinal)
        ? "#load \"kit.csx\" references the kit"
        : "#load \"workshop.csx\" builds the kit into artifacts/notebook-bin";

    /// <summary>
    /// Splits a cell, parsed as the kernel parses it (a script), into what an app puts where: its <c>using</c>
    /// directives go to the top of the file, its type declarations after the statements (a program's types must follow
    /// its top-level statements), and the rest stays in order. Also the names it declares at its top level: a later cell
    /// of a notebook may declare a name again, one program may not.
    /// </summary>
    private static Cell Translate(string code, string where)
    {
        var tree = CSharpSyntaxTree.ParseText(code, new CSharpParseOptions(LanguageVersion.Preview, kind: SourceCodeKind.Script));
        var root = (CompilationUnitSyntax)tree.GetRoot();
        if (tree.GetDiagnostics().FirstOrDefault(d => d.Severity == DiagnosticSeverity.Error) is { } error)
        {
            throw Refuse(where, $"it does not parse ({error.GetMessage(CultureInfo.InvariantCulture)}, line {error.Location.GetLineSpan().StartLinePosition.Line + 1})");
        }

        if (root.Externs.Count > 0 || root.AttributeLists.Count > 0)
        {
            throw Refuse(where, "an extern alias or an assembly attribute has no place in a cell of the app");
        }

        var moved = new List<TextSpan>();
        var usings = new List<string>();
        foreach (UsingDirectiveSyntax directive in root.Usings)
        {
            usings.Add(directive.WithoutTrivia().ToString());
            moved.Add(directive.FullSpan);
        }

        var types = new List<string>();
        var declares = new List<string>();
        foreach (MemberDeclarationSyntax member in root.Members)
        {
            switch (member)
            {
                case BaseTypeDeclarationSyntax or DelegateDeclarationSyntax:
                    types.Add(member.ToFullString().Trim('\n', '\r'));
                    moved.Add(member.FullSpan);
                    break;
                case FieldDeclarationSyntax field when field.Modifiers.All(m => m.IsKind(SyntaxKind.ConstKeyword)):
                    declares.AddRange(field.Declaration.Variables.Select(v => v.Identifier.Text));
                    break;
                case FieldDeclarationSyntax field:
                    throw Refuse(where, $"'{field.Modifiers}' on a variable ({field.Declaration.Variables[0].Identifier.Text}) makes it a field of the kernel's script, which a program's local cannot be: drop the modifier in the notebook");
                case MethodDeclarationSyntax method when method.Modifiers.All(m => m.Kind() is SyntaxKind.StaticKeyword or SyntaxKind.AsyncKeyword or SyntaxKind.UnsafeKeyword):
                    declares.Add(method.Identifier.Text); // a local function of the program
                    break;
                case MethodDeclarationSyntax method:
                    throw Refuse(where, $"'{method.Modifiers}' on {method.Identifier.Text}(...) cannot be said of a local function: drop it in the notebook, or move the method into a class");
                case GlobalStatementSyntax { Statement: LocalDeclarationStatementSyntax local }:
                    declares.AddRange(local.Declaration.Variables.Select(v => v.Identifier.Text));
                    break;
                case GlobalStatementSyntax { Statement: LocalFunctionStatementSyntax function }:
                    declares.Add(function.Identifier.Text);
                    break;
                case GlobalStatementSyntax { Statement: ExpressionStatementSyntax { Expression: AssignmentExpressionSyntax { Left: DeclarationExpressionSyntax deconstruction } } }:
                    declares.AddRange(deconstruction.DescendantNodes().OfType<SingleVariableDesignationSyntax>().Select(d => d.Identifier.Text));
                    break;
                case GlobalStatementSyntax:
                    break;
                case PropertyDeclarationSyntax or EventDeclarationSyntax or EventFieldDeclarationSyntax or IndexerDeclarationSyntax or OperatorDeclarationSyntax or NamespaceDeclarationSyntax or FileScopedNamespaceDeclarationSyntax:
                    throw Refuse(where, $"a {member.Kind()} at a cell's top level has no equivalent in a program's statements");
                default:
                    throw Refuse(where, $"{member.Kind()} at a cell's top level is not translated");
            }
        }

        var statements = new StringBuilder();
        int at = 0;
        foreach (TextSpan span in moved.OrderBy(s => s.Start))
        {
            statements.Append(code, at, span.Start - at);
            at = span.End;
        }

        statements.Append(code, at, code.Length - at);
        string kept = string.Join('\n', statements.ToString().Split('\n').SkipWhile(string.IsNullOrWhiteSpace).Reverse().SkipWhile(string.IsNullOrWhiteSpace).Reverse());
        if (root.ContainsDirectives && Nullable().IsMatch(string.Concat(types)))
        {
            throw Refuse(where, "a #nullable directive inside a type the app moves after its statements would change what it covers");
        }

        return new Cell(usings, types, declares, kept, root.Members.Any(m => m is GlobalStatementSyntax or FieldDeclarationSyntax or MethodDeclarationSyntax));
    }

    /// <summary>A markdown cell as comments, its relative links made relative to the apps' folder.</summary>
    private static string Comment(string markdown)
    {
        string relinked = RelativeLink().Replace(markdown, m => $"]({(m.Groups["target"].Value.StartsWith('#') ? string.Empty : "../")}{m.Groups["target"].Value})");
        return string.Concat(relinked.TrimEnd().Split('\n').Select(line => line.Length == 0 ? "//\n" : $"// {line}\n"));
    }

    private static string Source(JsonObject cell) => cell["source"] switch
    {
        JsonArray lines => string.Concat(lines.Select(l => (string?)l)),
        JsonValue text => (string?)text ?? string.Empty,
        _ => string.Empty,
    };

    private static InvalidDataException Refuse(string where, string why)
        => new($"{where}: cannot be written as an app: {why}. Nothing was written.");

    [GeneratedRegex(@"\]\((?<target>(?!https?:|mailto:)[^)\s]+)\)")]
    private static partial Regex RelativeLink();

    [GeneratedRegex(@"^\s*#nullable\b", RegexOptions.Multiline)]
    private static partial Regex Nullable();

    private sealed record Cell(List<string> Usings, List<string> Types, List<string> Declares, string Statements, bool HasCode);
}
