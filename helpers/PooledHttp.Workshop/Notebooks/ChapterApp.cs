using System.Net;
using System.Text;
using System.Text.RegularExpressions;
using Plotly.NET;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Notebooks;

/// <summary>
/// What a chapter run as a .NET file-based app (<c>notebooks/apps/NN-name.cs</c>, generated from the notebook) has in
/// place of the notebook host: the notebook's folder as the working directory, the quick profile on request, a live
/// progress line on the terminal, and <c>display</c> and <c>HTML</c> for the cells that call the kernel's. A generated
/// app imports it with <c>using static</c>, so the cells read as they do in the notebook.
/// </summary>
public static partial class ChapterApp
{
    /// <summary>What an app takes on its command line.</summary>
    public const string Usage = "dotnet run notebooks/apps/<chapter>.cs [-- --quick]";

    private static string _notebook = "chapter";

    /// <summary>
    /// Makes this process work as the notebook's kernel does: in the notebooks' folder (the kit's paths and
    /// BenchmarkDotNet's project search start there), on the quick profile when <paramref name="args"/> hold
    /// <c>--quick</c> (or <c>POOLEDHTTP_PROFILE=quick</c> is set, as in an editor), with progress lines redrawn in place.
    /// </summary>
    /// <param name="notebook">The chapter's name, <c>00-getting-started</c>: its results file and charts are named after it.</param>
    /// <param name="args">The app's command line.</param>
    /// <exception cref="ArgumentException">An argument other than <c>--quick</c>.</exception>
    public static void Start(string notebook, string[] args)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(notebook);
        ArgumentNullException.ThrowIfNull(args);
        if (args.FirstOrDefault(a => a != "--quick") is { } unknown)
        {
            throw new ArgumentException($"Unknown argument '{unknown}'. Usage: {Usage}", nameof(args));
        }

        _notebook = notebook;
        Environment.CurrentDirectory = NotebooksFolder(notebook);
        if (args.Contains("--quick"))
        {
            RunContext.Current.With(new RunContext { Profile = "quick" }).SetForThisProcess();
        }

        if (!Console.IsOutputRedirected && !Console.IsErrorRedirected && InPlaceConsole.Installed is null)
        {
            // On a terminal only: in a log or a pipe each progress update stays a line of its own.
            InPlaceConsole.Install(new InPlaceConsole(Console.Out, redirected: false, InPlaceConsole.TerminalWidth));
        }
        Console.WriteLine($"== {notebook} as a file-based app, {Benchmarks.MeasurementProfile.Current} profile; working folder {Environment.CurrentDirectory}, as the notebook's kernel");
    }

    /// <summary>Marks where the notebook's code cell <paramref name="number"/> (counted among all its cells, as the runner counts) starts.</summary>
    public static void Cell(int number) => Console.WriteLine($"-- {_notebook} cell {number}");

    /// <summary>
    /// The app's <c>display</c>: a table or a verdict as the kit writes it for a console (their <c>ToString</c>),
    /// an HTML fragment's tables as text, and a chart as a page of its own (plotly.js inside, no network needed),
    /// whose path it prints: open it in a browser.
    /// </summary>
    [System.Diagnostics.CodeAnalysis.SuppressMessage("Style", "IDE1006:Naming Styles", Justification = "The notebook's name for it: the cells call display(...) unchanged.")]
    public static void display(object value)
    {
        ArgumentNullException.ThrowIfNull(value);
        switch (value)
        {
            case GenericChart chart:
                string title = PlotlyHtml.Title(chart);
                string folder = WorkshopPaths.UnderRunner
                    ? Path.Combine(WorkshopPaths.Output, "charts")
                    : Path.Combine(WorkshopPaths.Root, "artifacts", "apps", _notebook);
                string path = Path.Combine(folder, PlotlyHtml.FileName(title));
                PlotlyHtml.Save(chart, path);
                Console.WriteLine($"[chart] {title}: {path}");
                break;
            case HtmlFragment fragment:
                Console.WriteLine(AsText(fragment.ToHtml()));
                break;
            default:
                Console.WriteLine(value);
                break;
        }
    }

    /// <summary>The app's <c>HTML(...)</c>, as <c>notebooks/kit.csx</c> declares it for the notebooks.</summary>
    [System.Diagnostics.CodeAnalysis.SuppressMessage("Naming", "CA1707:Identifiers should not contain underscores", Justification = "Not an underscore: the kernel's name, kept.")]
    public static HtmlFragment HTML(string html) => new(html);

    /// <summary>
    /// The notebooks' folder: the app's own folder's parent (the SDK tells a file-based app where its file is), else
    /// <c>notebooks/</c> under the repository root found from the working directory.
    /// </summary>
    private static string NotebooksFolder(string notebook)
    {
        if (AppContext.GetData("EntryPointFileDirectoryPath") is string appFolder
            && Directory.GetParent(appFolder) is { } parent
            && File.Exists(Path.Combine(parent.FullName, notebook + ".ipynb")))
        {
            return parent.FullName;
        }

        string folder = Path.Combine(RepositoryRoot.Find(), "notebooks");
        return File.Exists(Path.Combine(folder, notebook + ".ipynb"))
            ? folder
            : throw new InvalidOperationException($"{notebook}.ipynb is not in {folder}: run the app from inside a clone of the workshop ({Usage}).");
    }

    /// <summary>HTML as a console shows it: each table row a line, cells padded to their column's width; other markup dropped.</summary>
    internal static string AsText(string html)
    {
        var text = new StringBuilder();
        int at = 0;
        foreach (Match table in Table().Matches(html))
        {
            text.Append(Plain(html[at..table.Index]));
            List<string[]> rows = [.. Row().Matches(table.Value).Select(r => TableCell().Matches(r.Value).Select(c => Plain(c.Groups["text"].Value)).ToArray()).Where(r => r.Length > 0)];
            int columns = rows.Count == 0 ? 0 : rows.Max(r => r.Length);
            int[] widths = [.. Enumerable.Range(0, columns).Select(i => rows.Where(r => r.Length == columns).Select(r => r[i].Length).DefaultIfEmpty(0).Max())];
            foreach (string[] row in rows)
            {
                // A row of fewer cells (a footnote spanning the table) is written as it is.
                text.AppendLine(row.Length == columns
                    ? string.Join("  ", row.Select((c, i) => i == 0 ? c.PadRight(widths[i]) : c.PadLeft(widths[i]))).TrimEnd()
                    : string.Join("  ", row));
            }

            at = table.Index + table.Length;
        }

        return text.Append(Plain(html[at..])).ToString().Trim();
    }

    private static string Plain(string html) => WebUtility.HtmlDecode(Tag().Replace(html, string.Empty)).Trim();

    [GeneratedRegex(@"<table.*?</table>", RegexOptions.Singleline | RegexOptions.IgnoreCase)]
    private static partial Regex Table();

    [GeneratedRegex(@"<tr.*?</tr>", RegexOptions.Singleline | RegexOptions.IgnoreCase)]
    private static partial Regex Row();

    [GeneratedRegex(@"<t[hd][^>]*>(?<text>.*?)</t[hd]>", RegexOptions.Singleline | RegexOptions.IgnoreCase)]
    private static partial Regex TableCell();

    [GeneratedRegex(@"<[^>]+>")]
    private static partial Regex Tag();
}
