using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Notebooks;

/// <summary>Where the workshop's files are, from wherever a notebook or the runner happens to run.</summary>
public static class WorkshopPaths
{
    /// <summary>The repository root (<see cref="RepositoryRoot"/> says how it is found).</summary>
    public static string Root { get; } = RepositoryRoot.Find();

    /// <summary>The published figures of the five sources.</summary>
    public static string PublishedCsv => Path.Combine(Root, "data", "published", "published.csv");

    /// <summary>The percentages the sources published instead of figures (S3, S4).</summary>
    public static string PublishedClaimsCsv => Path.Combine(Root, "data", "published", "claims.csv");

    /// <summary>
    /// Whether the headless runner runs this notebook (it sets the run context's output folder; an editor never
    /// does): the one place the kit asks.
    /// </summary>
    public static bool UnderRunner => RunContext.Current.UnderRunner;

    /// <summary>The run's output folder: the runner's <c>--out</c>, or <c>data/results</c> in an editor.</summary>
    public static string Output => UnderRunner
        ? Path.GetFullPath(RunContext.Current.Output!)
        : Path.Combine(Root, "data", "results");

    /// <summary>
    /// Where <c>Measure</c> appends a notebook's rows: <c>results/</c> under the runner's <c>--out</c>, or
    /// <c>data/results</c> itself in an editor (git-ignored; the README names <c>data/results/NN-name.csv</c>).
    /// </summary>
    public static string ResultsFolder => UnderRunner
        ? Path.Combine(Output, "results")
        : Output;
}
