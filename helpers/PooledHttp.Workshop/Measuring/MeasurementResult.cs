using System.Collections;
using System.Globalization;
using System.Net;
using System.Text;
using PooledHttp.Workshop.Notebooks;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Measuring;

/// <summary>The rows one <see cref="Measure.Run(string, Server.LocalServer, Type[])"/> produced, displayable as a table.</summary>
public sealed class MeasurementResult(IReadOnlyList<MeasuredRow> rows) : IReadOnlyList<MeasuredRow>, IHtmlView
{
    /// <inheritdoc />
    public MeasuredRow this[int index] => rows[index];

    /// <inheritdoc />
    public int Count => rows.Count;

    /// <summary>
    /// The row of <paramref name="strategy"/> (at <paramref name="size"/>, of <paramref name="variant"/> and on
    /// .NET <paramref name="runtime"/>, when given). Rows from several runtimes need the runtime named: a row
    /// picked from whichever runtime came first would be a silent wrong answer.
    /// </summary>
    /// <exception cref="KeyNotFoundException">No row matches.</exception>
    /// <exception cref="InvalidOperationException">Rows from more than one runtime match and <paramref name="runtime"/> is not given.</exception>
    public MeasuredRow Get(string strategy, int? size = null, string? variant = null, int? runtime = null)
    {
        List<MeasuredRow> matches = rows.Where(r => r.Strategy == strategy && (size is null || r.PayloadBytes == size) && (variant is null || r.Variant == variant) && (runtime is null || r.RuntimeMajor == runtime)).ToList();
        string what = $"{strategy}{(size is null ? string.Empty : " at " + size)}{(variant is null ? string.Empty : " (" + variant + ")")}{(runtime is null ? string.Empty : " on .NET " + runtime)}";
        if (matches.Count == 0)
        {
            throw new KeyNotFoundException($"No row for {what}. Measured: {string.Join(", ", rows.Select(r => r.Label).Distinct())} on {string.Join(", ", Runtimes)}.");
        }

        List<string> runtimes = matches.Select(r => r.Runtime).Distinct().ToList();
        if (runtimes.Count > 1)
        {
            throw new InvalidOperationException($"{what} was measured on {string.Join(", ", runtimes)}: name one, e.g. runtime: {matches[0].RuntimeMajor}.");
        }

        return matches[0];
    }

    /// <summary>The runtimes these rows were measured on, oldest first, e.g. ".NET 8.0.31".</summary>
    public IReadOnlyList<string> Runtimes => [.. rows.OrderBy(r => r.RuntimeMajor).Select(r => r.Runtime).Distinct()];

    /// <summary>The rows measured on .NET <paramref name="major"/>.</summary>
    public MeasurementResult On(int major) => new(rows.Where(r => r.RuntimeMajor == major).ToList());

    /// <summary>The rows of one benchmark class, for a chart of its own.</summary>
    public MeasurementResult Of(string benchmark) => new(rows.Where(r => r.Benchmark == benchmark).ToList());

    /// <inheritdoc />
    public IEnumerator<MeasuredRow> GetEnumerator() => rows.GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <summary>What the error column shows for a row whose error is larger than its mean: <see cref="IsNoisy"/>.</summary>
    public const string NoisyError = "noisy: larger than the mean";

    /// <summary>The line under a table that holds a <see cref="IsNoisy"/> row, saying what that means.</summary>
    public const string NoisyFootnote =
        "noisy: the error (half BenchmarkDotNet's 99.9% confidence interval of the mean) is larger than the mean, "
        + "so the interval reaches below zero and this run does not pin that time down: compare it with nothing. "
        + "The allocation and collection columns are counted, not timed, and stand.";

    /// <summary>
    /// The lines under every table, saying what its columns hold. In BenchmarkDotNet's words
    /// (https://benchmarkdotnet.org/articles/configs/diagnosers.html, and its columns' legends in
    /// src/BenchmarkDotNet/Columns/StatisticColumn.cs and Diagnosers/MemoryDiagnoser.cs): Mean is the arithmetic
    /// mean of the measurements of one operation, Error half of the 99.9% confidence interval, Allocated the managed
    /// memory per single operation (1 KiB = 1,024 B), Gen X the collections of that generation per 1,000 operations.
    /// </summary>
    public static readonly IReadOnlyList<string> Legend =
    [
        "mean: average time of one operation; ± error: half BenchmarkDotNet's 99.9% confidence interval of that mean; "
        + "allocated / op: managed memory allocated by one operation (1 KiB = 1,024 bytes).",
        "Gen0, Gen1, Gen2: garbage collections of that generation per 1,000 operations; -: none recorded.",
    ];

    private static readonly string[] Header = ["strategy", "payload", "runtime", "allocated / op", "Gen0", "Gen1", "Gen2", "mean", "± error"];

    /// <summary>
    /// Whether <paramref name="row"/>'s error is larger than its mean: its 99.9% confidence interval then reaches
    /// below zero, and the time says nothing a reader could compare. Tables show such a row's error as
    /// <see cref="NoisyError"/> and explain it in <see cref="NoisyFootnote"/>, instead of an interval that means nothing.
    /// </summary>
    public static bool IsNoisy(MeasuredRow row)
    {
        ArgumentNullException.ThrowIfNull(row);
        return row.ErrorNs > row.MeanNs;
    }

    /// <summary>
    /// An HTML table: strategy, size, runtime, allocated, collections, mean and its error (half the 99.9% confidence
    /// interval), or <see cref="NoisyError"/> and a footnote when the error is larger than the mean; the
    /// <see cref="Legend"/> under it.
    /// </summary>
    public string ToHtml()
    {
        var html = new StringBuilder("<table><thead><tr>");
        foreach (string cell in Header)
        {
            html.Append("<th>").Append(cell).Append("</th>"); // plain text, written as it reads ("± error")
        }

        html.Append("</tr></thead><tbody>");
        foreach (string[] cells in Cells())
        {
            html.Append("<tr>");
            foreach (string cell in cells)
            {
                html.Append("<td>").Append(WebUtility.HtmlEncode(cell)).Append("</td>");
            }

            html.Append("</tr>");
        }

        html.Append("</tbody><tfoot>");
        foreach (string line in Footer())
        {
            html.Append("<tr><td colspan=\"").Append(Header.Length).Append("\"><small>").Append(AsHtmlText(line)).Append("</small></td></tr>");
        }

        return html.Append("</tfoot></table>").ToString();
    }

    /// <summary>A fixed-width text table, for consoles and logs, with the same legend and footnote as <see cref="ToHtml"/>.</summary>
    public override string ToString()
    {
        List<string[]> all = [Header, .. Cells()];
        int[] widths = Enumerable.Range(0, Header.Length).Select(i => all.Max(r => r[i].Length)).ToArray();
        string table = string.Join(Environment.NewLine, all.Select(r => string.Join("  ", r.Select((c, i) => i == 0 ? c.PadRight(widths[i]) : c.PadLeft(widths[i])))));
        return string.Join(Environment.NewLine, [table, .. Footer()]);
    }

    /// <summary>Text as it reads ("±", "BenchmarkDotNet's"), only the characters markup needs escaped.</summary>
    private static string AsHtmlText(string text) => text.Replace("&", "&amp;", StringComparison.Ordinal).Replace("<", "&lt;", StringComparison.Ordinal).Replace(">", "&gt;", StringComparison.Ordinal);

    /// <summary>The legend, then the footnote when a row is noisy.</summary>
    private IEnumerable<string> Footer() => rows.Any(IsNoisy) ? [.. Legend, NoisyFootnote] : Legend;

    private IEnumerable<string[]> Cells() => rows.Select(r => new[]
    {
        r.Label,
        r.PayloadBytes is { } size ? ByteUnits.Format(size) : "-",
        r.Runtime,
        ByteUnits.Format(r.AllocatedBytes),
        Collections(r.Gen0),
        Collections(r.Gen1),
        Collections(r.Gen2),
        TimeUnits.Format(r.MeanNs),
        IsNoisy(r) ? NoisyError : TimeUnits.Format(r.ErrorNs),
    });

    private static string Collections(double perThousand) => perThousand == 0 ? "-" : perThousand.ToString("0.####", CultureInfo.InvariantCulture);

}
