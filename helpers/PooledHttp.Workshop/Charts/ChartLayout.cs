using Plotly.NET;
using Plotly.NET.LayoutObjects;

namespace PooledHttp.Workshop.Charts;

/// <summary>
/// The layout settings the workshop's charts need and Plotly.NET's C# API (Plotly.NET.CSharp 0.14) has no
/// method for: a title, bar grouping, axis ticks with our own labels, the legend's place. Plotly.NET's
/// layout objects are dynamic, so each is set by its plotly.js name.
/// </summary>
internal sealed class ChartLayout
{
    private readonly Layout _layout;

    private ChartLayout(GenericChart chart)
    {
        Chart = chart;
        _layout = GenericChart.getLayout(chart);
    }

    /// <summary>The chart, whose layout this changes in place.</summary>
    public GenericChart Chart { get; }

    /// <summary>
    /// Starts from <paramref name="chart"/> with a title and a height, and no width: Plotly.NET's default
    /// 600 px width would stop the chart from filling the notebook's output.
    /// </summary>
    public static ChartLayout Of(GenericChart chart, string title, int height)
    {
        var layout = new ChartLayout(chart);
        layout._layout.RemoveProperty("width");
        var text = new Title();
        text.SetProperty("text", title);
        return layout.Set("title", text).Set("height", height);
    }

    /// <summary>Sets the layout property <paramref name="name"/> (plotly.js's name) to <paramref name="value"/>.</summary>
    public ChartLayout Set(string name, object value)
    {
        _layout.SetProperty(name, value);
        return this;
    }

    /// <summary>Sets the axis <paramref name="name"/> ("xaxis", "yaxis") from <paramref name="spec"/>.</summary>
    public ChartLayout Axis(string name, AxisSpec spec)
    {
        var axis = new LinearAxis();
        var title = new Title();
        title.SetProperty("text", spec.Title);
        axis.SetProperty("title", title);
        axis.SetProperty("automargin", true);
        if (spec.Type is { } type)
        {
            axis.SetProperty("type", type);
        }

        if (spec.LogRange is { } range)
        {
            // A log axis's range is in powers of ten.
            axis.SetProperty("range", new[] { range.Low, range.High });
        }

        if (spec.TickValues is { } values)
        {
            axis.SetProperty("tickvals", values);
            axis.SetProperty("ticktext", spec.TickLabels ?? values.Select(v => v.ToString(System.Globalization.CultureInfo.InvariantCulture)).ToArray());
        }

        if (spec.TickAngle is { } angle)
        {
            axis.SetProperty("tickangle", angle);
        }

        return Set(name, axis);
    }

    /// <summary>A horizontal legend above the plot, clear of long tilted axis labels.</summary>
    public ChartLayout LegendAbove() => Legend(y: 1.0, anchor: "bottom");

    /// <summary>A horizontal legend under the plot.</summary>
    public ChartLayout LegendBelow() => Legend(y: -0.25, anchor: null);

    private ChartLayout Legend(double y, string? anchor)
    {
        var legend = new Legend();
        legend.SetProperty("orientation", "h");
        legend.SetProperty("x", 0);
        legend.SetProperty("y", y);
        if (anchor is not null)
        {
            legend.SetProperty("yanchor", anchor);
        }

        return Set("legend", legend);
    }
}

/// <summary>What an axis shows: its title, and optionally its type, range (log axes), ticks and tick angle.</summary>
internal sealed record AxisSpec(string Title)
{
    public string? Type { get; init; }

    public (double Low, double High)? LogRange { get; init; }

    public double[]? TickValues { get; init; }

    public string[]? TickLabels { get; init; }

    public int? TickAngle { get; init; }
}
