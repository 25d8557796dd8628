using Plotly.NET;
using Plotly.NET.LayoutObjects;
using PooledHttp.Workshop.Measuring;
using Chart = Plotly.NET.CSharp.Chart;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Charts;

/// <summary>
/// The workshop's charts, built with Plotly.NET's C# API: allocations per strategy, allocations against
/// payload size, and grouped bars. Each is a <see cref="GenericChart"/>: display it, combine it, restyle it.
/// </summary>
public static class Charts
{
    /// <summary>
    /// Bytes allocated per operation for each strategy, on a log axis labelled in KiB and MiB. Published
    /// figures, when given, are a second series labelled as such.
    /// </summary>
    /// <param name="title">The chart's title.</param>
    /// <param name="measured">The rows to draw.</param>
    /// <param name="published">Published figures to draw beside them, labelled by their method names.</param>
    /// <param name="label">How to name a row on the axis; <see cref="MeasuredRow.Label"/> when not given. Name rows as the source did to pair them with its figures.</param>
    public static GenericChart Allocations(string title, IEnumerable<MeasuredRow> measured, IEnumerable<PublishedFigure>? published = null, Func<MeasuredRow, string>? label = null)
    {
        label ??= r => r.Label;
        List<MeasuredRow> rows = measured.ToList();
        var bars = new List<GenericChart>();
        // Oldest runtime first, whatever order BenchmarkDotNet reported in: bars read left to right as history.
        foreach (IGrouping<string, MeasuredRow> runtime in rows.GroupBy(r => r.Runtime).OrderBy(g => g.First().RuntimeMajor))
        {
            bars.Add(Bars("measured here, " + runtime.Key, runtime.Select(label), runtime.Select(r => (double)r.AllocatedBytes)));
        }

        List<PublishedFigure> figures = published?.ToList() ?? [];
        foreach (IGrouping<string, PublishedFigure> source in figures.GroupBy(f => f.SeriesName))
        {
            bars.Add(Bars(source.Key, source.Select(f => f.Method), source.Select(f => (double)f.AllocatedBytes)));
        }

        IEnumerable<double> all = rows.Select(r => (double)r.AllocatedBytes).Concat(figures.Select(f => (double)f.AllocatedBytes));
        return ChartLayout.Of(Combine(bars), title, height: 620)
            .Set("barmode", "group")
            .Axis("yaxis", LogBytesAxis("allocated per operation", all))
            // Long strategy names: tilt them and let the axis take the room it needs.
            .Axis("xaxis", new AxisSpec("strategy") { TickAngle = -25 })
            .LegendAbove()
            .Chart;
    }

    /// <summary>
    /// Bytes allocated (or time) per operation against payload size, one line per strategy, both axes
    /// log. Published figures, when given, are dotted lines named after their source. Zero bytes cannot
    /// sit on a log axis: such points are drawn on a bottom line labelled "0 B".
    /// </summary>
    public static GenericChart SizeSweep(string title, IEnumerable<MeasuredRow> measured, IEnumerable<PublishedFigure>? published = null, SweepMetric metric = SweepMetric.Allocated)
    {
        List<MeasuredRow> rows = measured.Where(r => r.PayloadBytes is not null).ToList();
        List<PublishedFigure> figures = (published ?? []).Where(f => f.PayloadBytes is not null && (metric == SweepMetric.Allocated || f.MeanNs is not null)).ToList();
        double Value(MeasuredRow r) => metric == SweepMetric.Allocated ? r.AllocatedBytes : r.MeanNs;
        double Published(PublishedFigure f) => metric == SweepMetric.Allocated ? f.AllocatedBytes : f.MeanNs!.Value;

        List<double> values = [.. rows.Select(Value), .. figures.Select(Published)];
        double floor = Math.Max(1, (values.Where(v => v > 0).DefaultIfEmpty(1024).Min()) / 16);
        bool hasZero = values.Any(v => v <= 0);
        double Plotted(double v) => v <= 0 ? floor : v;
        string Text(double v) => metric == SweepMetric.Allocated ? ByteUnits.Format(v) : TimeUnits.Format(v);

        var lines = new List<GenericChart>();
        bool manyRuntimes = rows.Select(x => x.Runtime).Distinct().Count() > 1;
        foreach (IGrouping<string, MeasuredRow> line in rows.GroupBy(r => r.Label + (manyRuntimes ? ", " + r.Runtime : string.Empty)))
        {
            List<MeasuredRow> points = line.OrderBy(r => r.PayloadBytes).ToList();
            lines.Add(Line(line.Key, points.Select(p => (double)p.PayloadBytes!.Value), points.Select(Value).ToArray(), Plotted, Text, dotted: false));
        }

        foreach (IGrouping<string, PublishedFigure> line in figures.GroupBy(f => $"{f.Method}, {f.SeriesName}"))
        {
            List<PublishedFigure> points = line.OrderBy(f => f.PayloadBytes).ToList();
            lines.Add(Line(line.Key, points.Select(p => (double)p.PayloadBytes!.Value), points.Select(Published).ToArray(), Plotted, Text, dotted: true));
        }

        AxisSpec yAxis = metric == SweepMetric.Allocated
            ? LogBytesAxis("allocated per operation", values.Select(Plotted))
            : LogTimeAxis("mean time per operation", values);
        if (hasZero && metric == SweepMetric.Allocated)
        {
            // Relabel the bottom tick: the points drawn there allocated nothing at all.
            double[] ticks = yAxis.TickValues!.Where(t => t > floor * 2).Prepend(floor).ToArray();
            yAxis = yAxis with
            {
                TickValues = ticks,
                TickLabels = ticks.Select(t => t == floor ? "0 B" : ByteUnits.Format(t)).ToArray(),
                LogRange = (Math.Log10(floor) - 0.2, yAxis.LogRange!.Value.High),
            };
        }

        return ChartLayout.Of(Combine(lines), title, height: 480)
            .Axis("xaxis", LogBytesAxis("payload size", rows.Select(r => (double)r.PayloadBytes!.Value).Concat(figures.Select(f => (double)f.PayloadBytes!.Value))))
            .Axis("yaxis", yAxis)
            .LegendBelow()
            .Chart;
    }

    /// <summary>
    /// Grouped bars: one group per category (for example, downloads in flight), one bar per series.
    /// For figures that are not bytes per operation: collections, pause times, throughput.
    /// </summary>
    /// <param name="title">The chart's title.</param>
    /// <param name="xTitle">What the categories are.</param>
    /// <param name="yTitle">What the values are, with their unit.</param>
    /// <param name="categories">The groups, in order.</param>
    /// <param name="series">Each series' name and its value per category.</param>
    public static GenericChart Grouped(string title, string xTitle, string yTitle, IReadOnlyList<string> categories, IReadOnlyDictionary<string, double[]> series)
    {
        ArgumentNullException.ThrowIfNull(categories);
        ArgumentNullException.ThrowIfNull(series);
        var bars = new List<GenericChart>();
        foreach ((string name, double[] values) in series)
        {
            if (values.Length != categories.Count)
            {
                throw new ArgumentException($"Series '{name}' has {values.Length} values for {categories.Count} categories.", nameof(series));
            }

            bars.Add(Chart.Column<double, string, string>(
                values,
                Keys: categories.Select(WithCaveat).ToArray(),
                Name: name,
                MultiText: values.Select(v => v.ToString("#,0.#", System.Globalization.CultureInfo.InvariantCulture)).ToArray(),
                TextPosition: StyleParam.TextPosition.Outside));
        }

        return ChartLayout.Of(Combine(bars), title, height: 480)
            .Set("barmode", "group")
            .Axis("xaxis", new AxisSpec(xTitle) { Type = "category" })
            .Axis("yaxis", new AxisSpec(yTitle))
            .LegendBelow()
            .Chart;
    }

    /// <summary>
    /// A chart of your own, made with Plotly.NET's API, given what every chart of the series has: a title, axis titles
    /// and the legend below the plot (beside it, a long trace name squeezes the plot to a sliver).
    /// </summary>
    /// <param name="chart">The chart, as <c>Plotly.NET.CSharp.Chart.Column</c>, <c>Chart.Line</c> and the others make it.</param>
    /// <param name="title">The chart's title, which is also a rendered picture's alt text.</param>
    /// <param name="xTitle">What the x axis shows.</param>
    /// <param name="yTitle">What the y axis shows, with its unit.</param>
    public static GenericChart Titled(GenericChart chart, string title, string xTitle, string yTitle)
    {
        ArgumentNullException.ThrowIfNull(chart);
        return ChartLayout.Of(chart, title, height: 420)
            .Axis("xaxis", new AxisSpec(xTitle))
            .Axis("yaxis", new AxisSpec(yTitle))
            .LegendBelow()
            .Chart;
    }

    /// <summary>
    /// Lines over time, one per series: chapter 09's counters, second by second, as <c>dotnet-counters</c> shows them.
    /// A series with no points yet is drawn as an empty line, so a chart updated in place keeps its legend.
    /// </summary>
    /// <param name="title">The chart's title.</param>
    /// <param name="yTitle">What the values are, with their unit.</param>
    /// <param name="series">Each series' name and its points (seconds, value).</param>
    public static GenericChart Timeline(string title, string yTitle, IReadOnlyDictionary<string, (double Second, double Value)[]> series)
    {
        ArgumentNullException.ThrowIfNull(series);
        var lines = series.Select(s => Chart.Line<double, double, string>(
            s.Value.Select(p => p.Second).ToArray(),
            s.Value.Select(p => p.Value).ToArray(),
            ShowMarkers: true,
            Name: s.Key)).ToList();
        return ChartLayout.Of(Combine(lines), title, height: 420)
            .Axis("xaxis", new AxisSpec("seconds since the watch began"))
            .Axis("yaxis", new AxisSpec(yTitle))
            .LegendBelow()
            .Chart;
    }

    /// <summary>The traces on one chart; none gives an empty chart with its axes (an exercise not done yet has no rows), where Plotly.NET's combine would throw.</summary>
    private static GenericChart Combine(List<GenericChart> traces) => traces.Count == 0 ? Chart.Invisible() : Chart.Combine(traces);

    /// <summary>
    /// Strategies whose figure must never be read without a warning, with the warning: S0's known-length
    /// read calls <c>ReadAsync</c> once and can stop early (chapter 04), so its bytes may be those of part of a body.
    /// </summary>
    private static readonly Dictionary<string, string> Caveats = new(StringComparer.Ordinal)
    {
        ["KnownLength_UseArrayPool"] = "partial read",
    };

    /// <summary><paramref name="label"/> with its strategy's caveat, on every chart that names it.</summary>
    internal static string WithCaveat(string label)
        => Caveats.FirstOrDefault(c => label.StartsWith(c.Key, StringComparison.Ordinal) && !label.Contains(c.Value, StringComparison.Ordinal)) is { Key: { } strategy } caveat
            ? $"{strategy} ({caveat.Value}){label[strategy.Length..]}"
            : label;

    private static GenericChart Bars(string name, IEnumerable<string> x, IEnumerable<double> y)
    {
        double[] values = y.ToArray();
        return Chart.Column<double, string, string>(
            values,
            Keys: x.Select(WithCaveat).ToArray(),
            Name: name,
            MultiText: values.Select(v => ByteUnits.Format(v)).ToArray(),
            TextPosition: StyleParam.TextPosition.Outside);
    }

    private static GenericChart Line(string name, IEnumerable<double> x, double[] values, Func<double, double> plotted, Func<double, string> text, bool dotted)
        => Chart.Line<double, double, string>(
            x.ToArray(),
            values.Select(plotted).ToArray(),
            ShowMarkers: true,
            Name: WithCaveat(name),
            MultiText: values.Select(text).ToArray(),
            LineDash: dotted ? StyleParam.DrawingStyle.Dot : StyleParam.DrawingStyle.Solid);

    /// <summary>A log axis of nanoseconds with ticks at powers of ten, labelled "10 ns", "1 us", "100 ms".</summary>
    private static AxisSpec LogTimeAxis(string title, IEnumerable<double> nanoseconds)
    {
        double[] positive = nanoseconds.Where(v => v > 0).ToArray();
        double high = positive.Length == 0 ? 1e3 : positive.Max();
        double[] ticks = Enumerable.Range(0, 12).Select(i => Math.Pow(10, i)).Where(t => t <= high * 10).ToArray();
        return new AxisSpec(title) { Type = "log", TickValues = ticks, TickLabels = ticks.Select(t => TimeUnits.Format(t)).ToArray() };
    }

    /// <summary>A log axis whose ticks are powers of 4 bytes, labelled "1 KiB", "4 KiB", ... "16 MiB".</summary>
    private static AxisSpec LogBytesAxis(string title, IEnumerable<double> values)
    {
        double[] positive = values.Where(v => v > 0).ToArray();
        double low = positive.Length == 0 ? 1 : positive.Min();
        double high = positive.Length == 0 ? 1024 : positive.Max();
        var ticks = new List<double>();
        for (double t = 1; t <= high * 4; t *= 4)
        {
            if (t >= low / 4)
            {
                ticks.Add(t);
            }
        }

        return new AxisSpec(title)
        {
            Type = "log",
            // Start two ticks below the smallest value, so the smallest bar is still a bar.
            LogRange = (Math.Log10(Math.Max(1, low / 16)), Math.Log10(high * 4)),
            TickValues = [.. ticks],
            TickLabels = ticks.Select(t => ByteUnits.Format(t)).ToArray(),
        };
    }
}
