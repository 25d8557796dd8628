using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace PooledHttp.Tests.Repository;

/// <summary>
/// The code a chapter shows is the code it measures. BenchmarkDotNet cannot run a class compiled in a
/// cell, so each strategy lives twice: as a static method in the Release-built helpers, which the
/// benchmark calls, and as the same method in the cell that introduces it, marked
/// <c>// Measured as Class.Method</c>, which the learner runs once against the local server. These tests
/// fail when the two drift apart, and when a chapter measures a strategy no cell shows.
/// </summary>
/// <remarks>
/// Compared token by token, comments and layout aside, and without the two things the helpers' analyzers
/// require of public code that a notebook has no use for: argument null checks, and
/// <c>ConfigureAwait(false)</c> (a notebook's cells run without a synchronization context, as does
/// BenchmarkDotNet's process, so it changes nothing either side).
/// </remarks>
public partial class ShownCodeTests
{
    private static readonly string Root = RepositoryTests.FindRoot();

    private static readonly Lazy<IReadOnlyList<TypeDeclarationSyntax>> Helpers = new(() =>
    [
        .. Directory.EnumerateFiles(Path.Combine(Root, "helpers"), "*.cs", SearchOption.AllDirectories)
            .Where(path => !path.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal) && !path.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .SelectMany(path => CSharpSyntaxTree.ParseText(File.ReadAllText(path), path: path).GetRoot().DescendantNodes().OfType<TypeDeclarationSyntax>()),
    ]);

    [Fact]
    public void Every_method_a_cell_marks_as_measured_is_the_helpers_method_token_for_token()
    {
        int compared = 0;
        foreach ((string notebook, int cell, string name, MethodShape shown) in ShownMethods())
        {
            MethodDeclarationSyntax helper = HelperMethod(name)
                ?? throw new Xunit.Sdk.XunitException($"{notebook}, cell {cell}: marked as measured as {name}, which is not a method in helpers/.");
            string expected = Normalize(helper.ReturnType, helper.Identifier, helper.ParameterList, helper.Body, helper.ExpressionBody, helper.Modifiers);
            string actual = Normalize(shown.ReturnType, shown.Identifier, shown.Parameters, shown.Body, shown.ExpressionBody, shown.Modifiers);
            Assert.True(expected == actual, $"{notebook}, cell {cell}: {name} differs from the helpers' copy.\nhelpers:  {expected}\nnotebook: {actual}");
            compared++;
        }

        Assert.True(compared >= 5, $"only {compared} marked methods found: did the marker change?");
    }

    [Fact]
    public void Every_strategy_a_chapter_measures_is_shown_in_it_or_an_earlier_chapter()
    {
        HashSet<string> shownSoFar = [];
        List<string> missing = [];
        foreach (string path in Notebooks())
        {
            string notebook = Path.GetFileNameWithoutExtension(path);
            shownSoFar.UnionWith(ShownMethods().Where(m => m.Notebook == notebook).Select(m => m.Name));
            foreach (string benchmark in MeasuredTypes(path))
            {
                TypeDeclarationSyntax type = Helpers.Value.FirstOrDefault(t => t.Identifier.Text == benchmark)
                    ?? throw new Xunit.Sdk.XunitException($"{notebook} measures {benchmark}, which is not a class in helpers/.");
                foreach ((MethodDeclarationSyntax method, string declaring) in WithBases(type).SelectMany(t => t.Members.OfType<MethodDeclarationSyntax>().Where(IsBenchmark).Select(m => (m, t.Identifier.Text))))
                {
                    IReadOnlyList<string> strategies = StrategiesCalledBy(method, declaring);
                    string? problem = strategies.Count == 0
                        ? $"{benchmark}.{method.Identifier.Text} calls no static method of the helpers a cell could show (make it one line that calls one)"
                        : strategies.FirstOrDefault(s => !shownSoFar.Contains(s)) is { } unshown ? $"{benchmark}.{method.Identifier.Text} runs {unshown}, which no cell shows" : null;
                    if (problem is not null)
                    {
                        missing.Add($"{notebook}: {problem}");
                    }
                }
            }
        }

        Assert.True(missing.Count == 0, string.Join('\n', missing));
    }

    private sealed record MethodShape(TypeSyntax ReturnType, SyntaxToken Identifier, ParameterListSyntax Parameters, BlockSyntax? Body, ArrowExpressionClauseSyntax? ExpressionBody, SyntaxTokenList Modifiers);

    private static IEnumerable<string> Notebooks()
        => Directory.GetFiles(Path.Combine(Root, "notebooks"), "*.ipynb").Order(StringComparer.Ordinal);

    private static IEnumerable<(int Index, string Source)> CodeCells(string path)
    {
        JsonArray cells = (JsonArray)JsonNode.Parse(File.ReadAllText(path))!["cells"]!;
        for (int i = 0; i < cells.Count; i++)
        {
            if ((string?)cells[i]!["cell_type"] == "code")
            {
                yield return (i, string.Concat(((JsonArray)cells[i]!["source"]!).Select(line => (string?)line)));
            }
        }
    }

    private static IEnumerable<(string Notebook, int Cell, string Name, MethodShape Shown)> ShownMethods()
    {
        var options = new CSharpParseOptions(LanguageVersion.Latest, kind: SourceCodeKind.Script);
        foreach (string path in Notebooks())
        {
            foreach ((int index, string source) in CodeCells(path))
            {
                SyntaxNode root = CSharpSyntaxTree.ParseText(source, options).GetRoot();
                foreach (SyntaxNode node in root.DescendantNodes().Where(n => n is MethodDeclarationSyntax or LocalFunctionStatementSyntax))
                {
                    Match marker = MeasuredAs().Match(node.GetLeadingTrivia().ToFullString());
                    if (!marker.Success)
                    {
                        continue;
                    }

                    MethodShape shape = node switch
                    {
                        MethodDeclarationSyntax m => new(m.ReturnType, m.Identifier, m.ParameterList, m.Body, m.ExpressionBody, m.Modifiers),
                        LocalFunctionStatementSyntax f => new(f.ReturnType, f.Identifier, f.ParameterList, f.Body, f.ExpressionBody, f.Modifiers),
                        _ => throw new InvalidOperationException(),
                    };
                    yield return (Path.GetFileNameWithoutExtension(path), index, marker.Groups[1].Value, shape);
                }
            }
        }
    }

    private static MethodDeclarationSyntax? HelperMethod(string name)
    {
        string[] parts = name.Split('.');
        return Helpers.Value.Where(t => t.Identifier.Text == parts[0])
            .SelectMany(t => t.Members.OfType<MethodDeclarationSyntax>())
            .FirstOrDefault(m => m.Identifier.Text == parts[1]);
    }

    /// <summary>The benchmark classes a notebook passes to <c>Measure.Run</c>.</summary>
    private static IEnumerable<string> MeasuredTypes(string path)
        => CodeCells(path).SelectMany(cell => MeasureCall().Matches(cell.Source))
            .SelectMany(call => TypeOf().Matches(call.Value).Select(m => m.Groups[1].Value))
            .Distinct();

    /// <summary>The class and the helpers' classes it derives from: a benchmark inherits its base's benchmarks.</summary>
    private static IEnumerable<TypeDeclarationSyntax> WithBases(TypeDeclarationSyntax type)
    {
        for (TypeDeclarationSyntax? current = type; current is not null;)
        {
            yield return current;
            string? baseName = current.BaseList?.Types.FirstOrDefault()?.Type.ToString();
            current = baseName is null ? null : Helpers.Value.FirstOrDefault(t => t.Identifier.Text == baseName);
        }
    }

    private static bool IsBenchmark(MethodDeclarationSyntax method)
        => method.AttributeLists.SelectMany(list => list.Attributes).Any(a => a.Name.ToString() is "Benchmark" or "BenchmarkDotNet.Attributes.Benchmark");

    /// <summary>The helpers' static methods a benchmark method calls, as "Class.Method": the code a cell must show.</summary>
    private static List<string> StrategiesCalledBy(MethodDeclarationSyntax method, string declaringType)
    {
        if (method.ExpressionBody is null)
        {
            return [];
        }

        List<string> called = [];
        foreach (InvocationExpressionSyntax invocation in method.ExpressionBody.DescendantNodesAndSelf().OfType<InvocationExpressionSyntax>())
        {
            string? name = invocation.Expression switch
            {
                MemberAccessExpressionSyntax { Expression: IdentifierNameSyntax type } access => $"{type.Identifier.Text}.{access.Name.Identifier.Text}",
                IdentifierNameSyntax bare => $"{declaringType}.{bare.Identifier.Text}",
                _ => null,
            };
            if (name is not null && HelperMethod(name) is { } target && target.Modifiers.Any(SyntaxKind.StaticKeyword))
            {
                called.Add(name);
            }
        }

        return called;
    }

    /// <summary>The method as tokens, without comments, layout, accessibility, argument checks or <c>ConfigureAwait(false)</c>.</summary>
    private static string Normalize(TypeSyntax returnType, SyntaxToken identifier, ParameterListSyntax parameters, BlockSyntax? body, ArrowExpressionClauseSyntax? expressionBody, SyntaxTokenList modifiers)
    {
        var rewriter = new NotebookNeutral();
        IEnumerable<string> kept = modifiers.Where(m => m.IsKind(SyntaxKind.StaticKeyword) || m.IsKind(SyntaxKind.AsyncKeyword)).Select(m => m.Text).Order(StringComparer.Ordinal);
        SyntaxNode? code = body is not null ? rewriter.Visit(body) : expressionBody is not null ? rewriter.Visit(expressionBody) : null;
        IEnumerable<string> tokens = new SyntaxNode?[] { returnType, parameters, code }.Where(n => n is not null).SelectMany(n => n!.DescendantTokens()).Select(t => t.Text);
        return string.Join(' ', kept.Append(identifier.Text).Concat(tokens));
    }

    private sealed class NotebookNeutral : CSharpSyntaxRewriter
    {
        public override SyntaxNode? VisitInvocationExpression(InvocationExpressionSyntax node)
            => node is { Expression: MemberAccessExpressionSyntax { Name.Identifier.Text: "ConfigureAwait" } access, ArgumentList.Arguments: [{ Expression: LiteralExpressionSyntax literal }] } && literal.IsKind(SyntaxKind.FalseLiteralExpression)
                ? Visit(access.Expression)
                : base.VisitInvocationExpression(node);

        public override SyntaxNode? VisitExpressionStatement(ExpressionStatementSyntax node)
            => node.Expression is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Expression: IdentifierNameSyntax { Identifier.Text: "ArgumentNullException" }, Name.Identifier.Text: "ThrowIfNull" } }
                ? null
                : base.VisitExpressionStatement(node);
    }

    [GeneratedRegex(@"//\s*Measured as (\w+\.\w+)")]
    private static partial Regex MeasuredAs();

    [GeneratedRegex(@"Measure\.Run\([^;]*")]
    private static partial Regex MeasureCall();

    [GeneratedRegex(@"typeof\((\w+)\)")]
    private static partial Regex TypeOf();
}
