using System.Collections;
using System.Globalization;
using System.Net;
using System.Text;
using PooledHttp.Workshop.Notebooks;

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

    /// <summary>An HTML table: strategy, size, runtime, allocated, collections, mean and its error (half the 99.9% confidence interval).</summary>
    public string ToHtml()
    {
        var html = new StringBuilder("<table><thead><tr><th>strategy</th><th>payload</th><th>runtime</th><th>allocated / op</th><th>Gen0</th><th>Gen1</th><th>Gen2</th><th>mean</th><th>± error</th></tr></thead><tbody>");
        foreach (string[] cells in Cells())
        {
            html.Append("<tr>");
            foreach (string cell in cells)
            {
                html.Append("<td>").Append(WebUtility.HtmlEncode(cell)).Append("</td>");
            }

            html.Append("</tr>");
        }

        return html.Append("</tbody></table>").ToString();
    }

    /// <summary>A fixed-width text table, for consoles and logs.</summary>
    public override string ToString()
    {
        string[] header = ["strategy", "payload", "runtime", "allocated / op", "Gen0", "Gen1", "Gen2", "mean", "± error"];
        List<string[]> all = [header, .. Cells()];
        int[] widths = Enumerable.Range(0, header.Length).Select(i => all.Max(r => r[i].Length)).ToArray();
        return string.Join(Environment.NewLine, all.Select(r => string.Join("  ", r.Select((c, i) => i == 0 ? c.PadRight(widths[i]) : c.PadLeft(widths[i])))));
    }

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
        TimeUnits.Format(r.ErrorNs),
    });

    private static string Collections(double perThousand) => perThousand == 0 ? "-" : perThousand.ToString("0.####", CultureInfo.InvariantCulture);

}
