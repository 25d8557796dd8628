using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Exercising;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Notebooks;

/// <summary>
/// The chapter's rows an exercise is drawn beside, outside a notebook: the learner's own latest run of the
/// chapter (<c>data/results/NN-name.csv</c>, appended by every run in an editor: the last row of each case
/// wins), else the committed reference run's.
/// </summary>
internal static class ChapterRows
{
    public static (MeasurementResult Rows, string From) Of(string notebook)
    {
        string own = Path.Combine(WorkshopPaths.Root, "data", "results", notebook + ".csv");
        string reference = Path.Combine(WorkshopPaths.Root, "data", "results", "reference", notebook + ".csv");
        foreach ((string path, string from) in new[] { (own, "your latest run of the chapter, " + Relative(own)), (reference, "the reference run, " + Relative(reference)) })
        {
            if (!File.Exists(path))
            {
                continue;
            }

            List<MeasuredRow> latest = [.. ResultsCsv.Read(path)
                .Where(r => r.Strategy != ExerciseBenchmark.Strategy)
                .GroupBy(r => (r.Benchmark, r.Strategy, r.PayloadBytes, r.Variant, r.Runtime))
                .Select(g => g.Last())];
            if (latest.Count > 0)
            {
                return (new MeasurementResult(latest), from);
            }
        }

        return (new MeasurementResult([]), "none");
    }

    private static string Relative(string path) => Path.GetRelativePath(WorkshopPaths.Root, path).Replace('\\', '/');
}
