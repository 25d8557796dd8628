using System.Globalization;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Notebooks;

namespace PooledHttp.Workshop.Charts;

/// <summary>
/// A relative figure one of the sources published as a percentage only (S3 and S4 gave no absolute
/// numbers), from <c>data/published/claims.csv</c>.
/// </summary>
/// <param name="Source">S3 or S4.</param>
/// <param name="Scenario">The scenario, e.g. "books-250-deserialize".</param>
/// <param name="Claim">What the percentage measures, in words.</param>
/// <param name="Percent">The published percentage.</param>
public sealed record PublishedClaim(string Source, string Scenario, string Claim, double Percent)
{
    /// <summary>The claim of <paramref name="source"/> about <paramref name="scenario"/>.</summary>
    /// <exception cref="KeyNotFoundException">The data file has no such claim.</exception>
    public static PublishedClaim Of(string source, string scenario)
    {
        string path = WorkshopPaths.PublishedClaimsCsv;
        return File.ReadAllLines(path).Skip(1).Where(l => l.Length > 0).Select(l => CsvLine.Split(l))
                   .Where(f => f[0] == source && f[1] == scenario)
                   .Select(f => new PublishedClaim(f[0], f[1], f[2], double.Parse(f[3], CultureInfo.InvariantCulture)))
                   .FirstOrDefault()
               ?? throw new KeyNotFoundException($"{path} has no claim of {source} about {scenario}.");
    }
}
