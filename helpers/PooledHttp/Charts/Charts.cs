using System.Text.Json.Nodes;
using PooledHttp.Measuring;

namespace PooledHttp.Charts;

/// <summary>The workshop's charts: allocations per strategy, and allocations against payload size.</summary>
public static class Charts
{
    /// <summary>
    /// Bytes allocated per operation for each strategy, on a log axis labelled in KB and MB. Published
    /// figures, when given, are a second series labelled as such.
    /// </summary>
    public static PlotlyChart Allocations(string title, IEnumerable<MeasuredRow> measured, IEnumerable<PublishedFigure>? published = null)
    {
        List<MeasuredRow> rows = measured.ToList();
        var data = new JsonArray();
        foreach (IGrouping<string, MeasuredRow> runtime in rows.GroupBy(r => r.Runtime))
        {
            data.Add(Bar(
                name: "measured here, " + runtime.Key,
                x: runtime.Select(Label),
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
            ["xaxis"] = new JsonObject { ["title"] = new JsonObject { ["text"] = "strategy" } },
            ["legend"] = new JsonObject { ["orientation"] = "h", ["y"] = -0.25 },
        };
        return new PlotlyChart(title, data, layout);
    }

    /// <summary>Bytes allocated per operation against payload size, one line per strategy, both axes log.</summary>
    public static PlotlyChart SizeSweep(string title, IEnumerable<MeasuredRow> measured)
    {
        List<MeasuredRow> rows = measured.Where(r => r.PayloadBytes is not null).ToList();
        var data = new JsonArray();
        foreach (IGrouping<string, MeasuredRow> line in rows.GroupBy(r => r.Strategy + (rows.Select(x => x.Runtime).Distinct().Count() > 1 ? ", " + r.Runtime : string.Empty)))
        {
            List<MeasuredRow> points = line.OrderBy(r => r.PayloadBytes).ToList();
            data.Add(new JsonObject
            {
                ["type"] = "scatter",
                ["mode"] = "lines+markers",
                ["name"] = line.Key,
                ["x"] = PlotlyChart.Node(points.Select(p => p.PayloadBytes!.Value).ToArray()),
                ["y"] = PlotlyChart.Node(points.Select(p => p.AllocatedBytes).ToArray()),
                ["text"] = PlotlyChart.Node(points.Select(p => ByteUnits.Format(p.AllocatedBytes)).ToArray()),
                ["hovertemplate"] = "%{text} per op<extra>%{fullData.name}</extra>",
            });
        }

        var layout = new JsonObject
        {
            ["title"] = new JsonObject { ["text"] = title },
            ["xaxis"] = LogBytesAxis("payload size", rows.Select(r => (double)r.PayloadBytes!.Value)),
            ["yaxis"] = LogBytesAxis("allocated per operation", rows.Select(r => (double)r.AllocatedBytes)),
        };
        return new PlotlyChart(title, data, layout);
    }

    private static string Label(MeasuredRow row) => row.Strategy;

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

    /// <summary>A log axis whose ticks are powers of 4 bytes, labelled "1 KB", "4 KB", ... "16 MB".</summary>
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
            ["range"] = PlotlyChart.Node(new[] { Math.Log10(Math.Max(1, low / 16)), Math.Log10(high * 2) }),
            ["tickvals"] = PlotlyChart.Node(ticks.ToArray()),
            ["ticktext"] = PlotlyChart.Node(ticks.Select(t => ByteUnits.Format(t)).ToArray()),
        };
    }
}
