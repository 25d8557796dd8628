using System.Globalization;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Notebooks;

namespace PooledHttp.Workshop.Charts;

/// <summary>A figure one of the five sources published, from <c>data/published/published.csv</c>.</summary>
/// <param name="Source">S0 to S4.</param>
/// <param name="Scenario">The source's scenario, e.g. "download".</param>
/// <param name="Method">The source's benchmark name.</param>
/// <param name="Runtime">The runtime the source measured on.</param>
/// <param name="Payload">The payload size in bytes, or the source's word for it ("large").</param>
/// <param name="AllocatedBytes">Bytes per operation, converted from the source's KB, which is BenchmarkDotNet's: 1,024 B.</param>
/// <param name="MeanNs">The published mean time per operation in nanoseconds, when the source gave one.</param>
public sealed record PublishedFigure(string Source, string Scenario, string Method, string Runtime, string Payload, long AllocatedBytes, double? MeanNs)
{
    /// <summary>The payload in bytes, when the source stated it.</summary>
    public int? PayloadBytes => int.TryParse(Payload, NumberStyles.None, CultureInfo.InvariantCulture, out int bytes) ? bytes : null;

    /// <summary>
    /// How a chart names this figure's series: "published (S0, net8.0)", or "published (S2, runtime not stated)" where the
    /// source did not say which runtime it measured (<c>unknown</c> in the data file).
    /// </summary>
    public string SeriesName => $"published ({Source}, {(Runtime is "" or "unknown" ? "runtime not stated" : Runtime)})";

    /// <summary>The published figures of <paramref name="source"/>, optionally of one scenario.</summary>
    public static IReadOnlyList<PublishedFigure> Of(string source, string? scenario = null)
    {
        string[] lines = File.ReadAllLines(WorkshopPaths.PublishedCsv);
        return lines.Skip(1).Where(l => l.Length > 0).Select(l => CsvLine.Split(l)).Where(f => f[0] == source && (scenario is null || f[1] == scenario) && f[9].Length > 0)
            .Select(f => new PublishedFigure(f[0], f[1], f[2], f[3], f[4], long.Parse(f[9], CultureInfo.InvariantCulture),
                f[5].Length == 0 ? null : double.Parse(f[5], CultureInfo.InvariantCulture)))
            .ToList();
    }
}
