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
        var parts = new List<(int Number, string? Markdown, Cell? Code, bool Setup, string Source)>();
        bool kit = false;
        for (int i = 0; i < cells.Count; i++)
        {
            int number = i + 1; // as the runner counts: every cell, from 1
            string source = Source(cells[i]).ReplaceLineEndings("\n");
            string where = $"notebooks/{name}.ipynb, cell {number}";
            if ((string?)cells[i]["cell_type"] == "markdown")
            {
                parts.Add((number, source, null, false, source));
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
            usings.AddRange(cell.Usings.Where(u => !usings.Contains(u)));
            if (cell.Declares.Concat(cell.Nested).FirstOrDefault(Reserved.Contains) is { } reserved)
            {
                throw Refuse(where, $"it declares '{reserved}', a name the app itself uses (ChapterApp's, or the program's args): rename it in the notebook");
            }

            parts.Add((number, null, cell, setup, source));
        }

        HashSet<int> blocks = Blocks([.. parts.Where(p => p.Code is not null).Select(p => (p.Number, p.Code!))], name);
        var body = new StringBuilder();
        var types = new StringBuilder();
        foreach ((int number, string? markdown, Cell? cell, bool setup, string source) in parts)
        {
            if (markdown is not null)
            {
                body.Append(Comment(markdown)).Append('\n');
                continue;
            }

            foreach (string type in cell!.Types)
            {
                types.Append(CultureInfo.InvariantCulture, $"// Declared in cell {number}; a program's types follow its statements.\n").Append(type).Append("\n\n");
            }

            if (setup && !cell.HasCode)
            {
                // Its comments, if any, speak of the notebook's setup, which the app does not have: said once, here.
                body.Append(CultureInfo.InvariantCulture, $"// Cell {number}, the notebook's setup ({SetupWhat(source)}): the #:project line at the top does it here.\n\n");
                continue;
            }

            body.Append(CultureInfo.InvariantCulture, $"Cell({number});\n");
            if (blocks.Contains(number))
            {
                // A scope of its own, as the cell has in the notebook: its names clash with another cell's (Blocks says how).
                body.Append("{ // a block of its own, as the cell is a scope of its own in the notebook: a name it declares is declared by another cell too\n").Append(string.Concat(cell.Statements.Split('\n').Select(l => l.Length == 0 ? "\n" : "    " + l + "\n"))).Append("}\n");
            }
            else
            {
                body.Append(cell.Statements).Append('\n');
            }

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
        // To change the chapter itself, edit the notebook and run that command again (a test fails while the two differ).
        // Your own lines are yours to edit here: a guess the text asks for, a value to try.
        //
        // Run it from anywhere in the clone:  dotnet run notebooks/apps/{name}.cs          (the quick profile: add -- --quick)
        // It builds in Release, as the runner builds the kit (notebooks/apps/Directory.Build.props says how), and runs the
        // notebook's code cells in order; each starts at its Cell(n) line, n as the notebook and the runner count cells.
        // Where the text below says "cell", read the code under a Cell(n) line; to run a cell again, run the app again.
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
        var constants = new List<string>();
        foreach (MemberDeclarationSyntax member in root.Members)
        {
            switch (member)
            {
                case BaseTypeDeclarationSyntax or DelegateDeclarationSyntax:
                    types.Add(member.ToFullString().Trim('\n', '\r'));
                    moved.Add(member.FullSpan);
                    break;
                case FieldDeclarationSyntax { Modifiers.Count: 0 } variable: // a script's variable: a program's local
                    declares.AddRange(variable.Declaration.Variables.Select(v => v.Identifier.Text));
                    break;
                case FieldDeclarationSyntax field when field.Modifiers.All(m => m.IsKind(SyntaxKind.ConstKeyword)):
                    // A script's constant is a member, seen by the whole cell; a program's local constant only below it.
                    declares.AddRange(field.Declaration.Variables.Select(v => v.Identifier.Text));
                    constants.Add(field.ToFullString().Trim('\n', '\r'));
                    moved.Add(field.FullSpan);
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
        string kept = string.Join('\n', constants.Append(statements.ToString()).SelectMany(part => part.Split('\n')).SkipWhile(string.IsNullOrWhiteSpace).Reverse().SkipWhile(string.IsNullOrWhiteSpace).Reverse());
        if (root.ContainsDirectives && Nullable().IsMatch(string.Concat(types)))
        {
            throw Refuse(where, "a #nullable directive inside a type the app moves after its statements would change what it covers");
        }

        IEnumerable<SyntaxNode> outsideFunctions = root.Members.OfType<GlobalStatementSyntax>()
            .SelectMany(g => g.DescendantNodes(n => n is not (AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax)));
        HashSet<string> nested = [.. outsideFunctions.SelectMany(DeclaredBy)];
        HashSet<string> uses = [.. root.DescendantNodes().OfType<IdentifierNameSyntax>().Select(n => n.Identifier.Text)];
        return new Cell(usings, types, declares, kept, root.Members.Any(m => m is GlobalStatementSyntax or FieldDeclarationSyntax or MethodDeclarationSyntax), nested, uses);
    }

    /// <summary>The names a node declares in the scope it is in: a local, a loop's variable, a pattern's or out variable, a caught exception.</summary>
    private static IEnumerable<string> DeclaredBy(SyntaxNode node) => node switch
    {
        VariableDeclaratorSyntax v => [v.Identifier.Text],
        SingleVariableDesignationSyntax d => [d.Identifier.Text],
        ForEachStatementSyntax f => [f.Identifier.Text],
        CatchDeclarationSyntax { Identifier.Text.Length: > 0 } c => [c.Identifier.Text],
        _ => [],
    };

    /// <summary>
    /// Which cells' statements go in a block of their own. A notebook's cells are scopes of their own; a program's
    /// top-level statements are one scope, in which a name declared at the top level of one cell clashes with the same
    /// name declared anywhere in another (CS0128, CS0136). The clash goes when one of the two cells is a block, which it
    /// can be only when no later cell uses what its top level declares; when neither can, the notebook must rename.
    /// </summary>
    private static HashSet<int> Blocks(List<(int Number, Cell Cell)> cells, string name)
    {
        var blocks = new HashSet<int>();
        // A later cell that declares the name itself means its own (or no cell would compile in the notebook either).
        bool Wrappable(int index) => cells.Skip(index + 1).All(later => !cells[index].Cell.Declares.Any(n => later.Cell.Uses.Contains(n) && !later.Cell.Declares.Contains(n) && !later.Cell.Nested.Contains(n)));
        for (int a = 0; a < cells.Count; a++)
        {
            for (int b = 0; b < cells.Count; b++)
            {
                if (a == b || blocks.Contains(cells[a].Number) || blocks.Contains(cells[b].Number))
                {
                    continue;
                }

                string? clash = cells[a].Cell.Declares.FirstOrDefault(n => cells[b].Cell.Nested.Contains(n) || cells[b].Cell.Declares.Contains(n));
                if (clash is null)
                {
                    continue;
                }

                if (Wrappable(a))
                {
                    blocks.Add(cells[a].Number);
                }
                else if (cells[b].Cell.Declares.Contains(clash) && Wrappable(b))
                {
                    blocks.Add(cells[b].Number);
                }
                else
                {
                    throw Refuse($"notebooks/{name}.ipynb, cells {cells[a].Number} and {cells[b].Number}", $"both declare '{clash}', and later cells use what cell {cells[a].Number} declares, so it cannot be a block of its own: one program has one scope for both. Rename one of them in the notebook");
                }
            }
        }

        return blocks;
    }

    /// <summary>A markdown cell as comments, its relative links made relative to the apps' folder.</summary>
    private static string Comment(string markdown)
    {
        string relinked = RelativeLink().Replace(markdown, m => $"]({(m.Groups["target"].Value.StartsWith('#') ? string.Empty : "../")}{m.Groups["target"].Value})");
        return string.Concat(relinked.TrimEnd().Split('\n').Select(line => line.Length == 0 ? "//\n" : $"// {line}\n"));
    }

    private static string Source(JsonObject cell) => cell["source"] is JsonNode source ? ChapterRendering.Text(source) : string.Empty;

    private static InvalidDataException Refuse(string where, string why)
        => new($"{where}: cannot be written as an app: {why}. Nothing was written.");

    [GeneratedRegex(@"\]\((?<target>(?!https?:|mailto:)[^)\s]+)\)")]
    private static partial Regex RelativeLink();

    [GeneratedRegex(@"^\s*#nullable\b", RegexOptions.Multiline)]
    private static partial Regex Nullable();

    private sealed record Cell(List<string> Usings, List<string> Types, List<string> Declares, string Statements, bool HasCode, HashSet<string> Nested, HashSet<string> Uses);
}
