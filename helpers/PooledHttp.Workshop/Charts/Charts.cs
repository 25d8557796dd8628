using System.Text.Json.Nodes;
using PooledHttp.Measuring;

namespace PooledHttp.Charts;

/// <summary>The workshop's charts: allocations per strategy, and allocations against payload size.</summary>
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
    public static PlotlyChart Allocations(string title, IEnumerable<MeasuredRow> measured, IEnumerable<PublishedFigure>? published = null, Func<MeasuredRow, string>? label = null)
    {
        label ??= r => r.Label;
        List<MeasuredRow> rows = measured.ToList();
        var data = new JsonArray();
        // Oldest runtime first, whatever order BenchmarkDotNet reported in: bars read left to right as history.
        foreach (IGrouping<string, MeasuredRow> runtime in rows.GroupBy(r => r.Runtime).OrderBy(g => g.First().RuntimeMajor))
        {
            data.Add(Bar(
                name: "measured here, " + runtime.Key,
                x: runtime.Select(label),
                y: runtime.Select(r => (double)r.AllocatedBytes)));
        }

        List<PublishedFigure> figures = published?.ToList() ?? [];
        foreach (IGrouping<string, PublishedFigure> source in figures.GroupBy(f => $"published ({f.Source}, {f.Runtime})"))
        {
            data.Add(Bar(source.Key, source.Select(f => f.Method), source.Select(f => (double)f.AllocatedBytes)));
        }

        IEnumerable<double> all = rows.Select(r => (double)r.AllocatedBytes).Concat(figures.Select(f => (double)f.AllocatedBytes));
        var layout = new JsonObject
        {
            ["title"] = new JsonObject { ["text"] = title },
            ["barmode"] = "group",
            ["yaxis"] = LogBytesAxis("allocated per operation", all),
            // Long strategy names: tilt them, let the axis take the room it needs, keep the legend above the plot.
            ["xaxis"] = new JsonObject { ["title"] = new JsonObject { ["text"] = "strategy" }, ["tickangle"] = -25, ["automargin"] = true },
            ["legend"] = new JsonObject { ["orientation"] = "h", ["x"] = 0, ["y"] = 1.0, ["yanchor"] = "bottom" },
            ["height"] = 620,
        };
        return new PlotlyChart(title, data, layout);
    }

    /// <summary>
    /// Bytes allocated (or time) per operation against payload size, one line per strategy, both axes
    /// log. Published figures, when given, are dotted lines named after their source. Zero bytes cannot
    /// sit on a log axis: such points are drawn on a bottom line labelled "0 B".
    /// </summary>
    public static PlotlyChart SizeSweep(string title, IEnumerable<MeasuredRow> measured, IEnumerable<PublishedFigure>? published = null, SweepMetric metric = SweepMetric.Allocated)
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

        var data = new JsonArray();
        bool manyRuntimes = rows.Select(x => x.Runtime).Distinct().Count() > 1;
        foreach (IGrouping<string, MeasuredRow> line in rows.GroupBy(r => r.Label + (manyRuntimes ? ", " + r.Runtime : string.Empty)))
        {
            List<MeasuredRow> points = line.OrderBy(r => r.PayloadBytes).ToList();
            data.Add(Line(line.Key, points.Select(p => (double)p.PayloadBytes!.Value), points.Select(p => Value(p)), Plotted, Text, dotted: false));
        }

        foreach (IGrouping<string, PublishedFigure> line in figures.GroupBy(f => $"{f.Method}, published ({f.Source}, {f.Runtime})"))
        {
            List<PublishedFigure> points = line.OrderBy(f => f.PayloadBytes).ToList();
            data.Add(Line(line.Key, points.Select(p => (double)p.PayloadBytes!.Value), points.Select(Published), Plotted, Text, dotted: true));
        }

        JsonObject yAxis = metric == SweepMetric.Allocated
            ? LogBytesAxis("allocated per operation", values.Select(Plotted))
            : LogTimeAxis("mean time per operation", values);
        if (hasZero && metric == SweepMetric.Allocated)
        {
            // Relabel the bottom tick: the points drawn there allocated nothing at all.
            var ticks = ((JsonArray)yAxis["tickvals"]!).Select(t => (double)t!).Where(t => t > floor * 2).Prepend(floor).ToArray();
            yAxis["tickvals"] = PlotlyChart.Node(ticks);
            yAxis["ticktext"] = PlotlyChart.Node(ticks.Select(t => t == floor ? "0 B" : ByteUnits.Format(t)).ToArray());
            ((JsonArray)yAxis["range"]!)[0] = Math.Log10(floor) - 0.2;
        }

        var layout = new JsonObject
        {
            ["title"] = new JsonObject { ["text"] = title },
            ["xaxis"] = LogBytesAxis("payload size", rows.Select(r => (double)r.PayloadBytes!.Value).Concat(figures.Select(f => (double)f.PayloadBytes!.Value))),
            ["yaxis"] = yAxis,
            ["legend"] = new JsonObject { ["orientation"] = "h", ["y"] = -0.25 },
        };
        return new PlotlyChart(title, data, layout);
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
    public static PlotlyChart Grouped(string title, string xTitle, string yTitle, IReadOnlyList<string> categories, IReadOnlyDictionary<string, double[]> series)
    {
        ArgumentNullException.ThrowIfNull(categories);
        ArgumentNullException.ThrowIfNull(series);
        var data = new JsonArray();
        foreach ((string name, double[] values) in series)
        {
            if (values.Length != categories.Count)
            {
                throw new ArgumentException($"Series '{name}' has {values.Length} values for {categories.Count} categories.", nameof(series));
            }

            data.Add(new JsonObject
            {
                ["type"] = "bar",
                ["name"] = name,
                ["x"] = PlotlyChart.Node(categories.ToArray()),
                ["y"] = PlotlyChart.Node(values),
                ["text"] = PlotlyChart.Node(values.Select(v => v.ToString("#,0.#", System.Globalization.CultureInfo.InvariantCulture)).ToArray()),
                ["textposition"] = "outside",
            });
        }

        var layout = new JsonObject
        {
            ["title"] = new JsonObject { ["text"] = title },
            ["barmode"] = "group",
            ["xaxis"] = new JsonObject { ["title"] = new JsonObject { ["text"] = xTitle }, ["type"] = "category" },
            ["yaxis"] = new JsonObject { ["title"] = new JsonObject { ["text"] = yTitle } },
            ["legend"] = new JsonObject { ["orientation"] = "h", ["y"] = -0.25 },
        };
        return new PlotlyChart(title, data, layout);
    }

    private static JsonObject Line(string name, IEnumerable<double> x, IEnumerable<double> y, Func<double, double> plotted, Func<double, string> text, bool dotted)
    {
        double[] values = y.ToArray();
        var line = new JsonObject
        {
            ["type"] = "scatter",
            ["mode"] = "lines+markers",
            ["name"] = name,
            ["x"] = PlotlyChart.Node(x.ToArray()),
            ["y"] = PlotlyChart.Node(values.Select(plotted).ToArray()),
            ["text"] = PlotlyChart.Node(values.Select(text).ToArray()),
            ["hovertemplate"] = "%{text} per op<extra>%{fullData.name}</extra>",
        };
        if (dotted)
        {
            line["line"] = new JsonObject { ["dash"] = "dot" };
        }

        return line;
    }

    /// <summary>A log axis of nanoseconds with ticks at powers of ten, labelled "10 ns", "1 us", "100 ms".</summary>
    private static JsonObject LogTimeAxis(string title, IEnumerable<double> nanoseconds)
    {
        double[] positive = nanoseconds.Where(v => v > 0).ToArray();
        double high = positive.Length == 0 ? 1e3 : positive.Max();
        double[] ticks = Enumerable.Range(0, 12).Select(i => Math.Pow(10, i)).Where(t => t <= high * 10).ToArray();
        return new JsonObject
        {
            ["title"] = new JsonObject { ["text"] = title },
            ["type"] = "log",
            ["tickvals"] = PlotlyChart.Node(ticks),
            ["ticktext"] = PlotlyChart.Node(ticks.Select(t => TimeUnits.Format(t)).ToArray()),
        };
    }

    private static JsonObject Bar(string name, IEnumerable<string> x, IEnumerable<double> y)
    {
        double[] values = y.ToArray();
        return new JsonObject
        {
            ["type"] = "bar",
            ["name"] = name,
            ["x"] = PlotlyChart.Node(x.ToArray()),
            ["y"] = PlotlyChart.Node(values),
            ["text"] = PlotlyChart.Node(values.Select(v => ByteUnits.Format(v)).ToArray()),
            ["textposition"] = "outside",
            ["hovertemplate"] = "%{x}: %{text} per op<extra>%{fullData.name}</extra>",
        };
    }

    /// <summary>A log axis whose ticks are powers of 4 bytes, labelled "1 KiB", "4 KiB", ... "16 MiB".</summary>
    private static JsonObject LogBytesAxis(string title, IEnumerable<double> values)
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

        return new JsonObject
        {
            ["title"] = new JsonObject { ["text"] = title },
            ["type"] = "log",
            // Start two ticks below the smallest value, so the smallest bar is still a bar.
            ["range"] = PlotlyChart.Node(new[] { Math.Log10(Math.Max(1, low / 16)), Math.Log10(high * 4) }),
            ["tickvals"] = PlotlyChart.Node(ticks.ToArray()),
            ["ticktext"] = PlotlyChart.Node(ticks.Select(t => ByteUnits.Format(t)).ToArray()),
        };
    }
}
