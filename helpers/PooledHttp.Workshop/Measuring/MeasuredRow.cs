namespace PooledHttp.Workshop.Measuring;

/// <summary>One strategy measured at one payload size on one runtime: a row of a notebook's table and of the results CSV.</summary>
/// <param name="Notebook">The notebook that measured it.</param>
/// <param name="Benchmark">The benchmark class.</param>
/// <param name="Strategy">The benchmark method: the strategy's name.</param>
/// <param name="PayloadBytes">The body size, from the benchmark's <c>Size</c> parameter, when it has one.</param>
/// <param name="Variant">The benchmark's other parameters, e.g. "ContentLength" or "Books=250"; empty when it has none.</param>
/// <param name="Runtime">The runtime that ran it, e.g. ".NET 10.0.12".</param>
/// <param name="AllocatedBytes">Bytes allocated per operation, from BenchmarkDotNet's memory diagnoser.</param>
/// <param name="Gen0">Gen0 collections per 1000 operations.</param>
/// <param name="Gen1">Gen1 collections per 1000 operations.</param>
/// <param name="Gen2">
/// Gen2 collections per 1000 operations, counted in the one iteration BenchmarkDotNet's memory
/// diagnoser runs. When that iteration holds only a few operations (a download of several MiB), it is a
/// sample: 0 when no collection fell inside it, hundreds when one did. Chapter 04a counts the naive
/// read over many downloads for comparison.
/// </param>
/// <param name="MeanNs">Mean time per operation, in nanoseconds. Only comparable within one run.</param>
/// <param name="ErrorNs">Half the 99.9% confidence interval of the mean, in nanoseconds.</param>
/// <param name="Profile">The measuring profile: "default" or "quick".</param>
public sealed record MeasuredRow(
    string Notebook,
    string Benchmark,
    string Strategy,
    int? PayloadBytes,
    string Variant,
    string Runtime,
    long AllocatedBytes,
    double Gen0,
    double Gen1,
    double Gen2,
    double MeanNs,
    double ErrorNs,
    string Profile)
{
    /// <summary>The runtime's major version (8 for ".NET 8.0.31"); 0 when the runtime is unknown.</summary>
    public int RuntimeMajor
        => Runtime.StartsWith(".NET ", StringComparison.Ordinal) && Version.TryParse(Runtime[5..].Split(' ')[0], out Version? version) ? version.Major : 0;

    /// <summary>The mean with its error, e.g. "9.07 ms ± 0.41 ms".</summary>
    public string Time => TimeUnits.Format(MeanNs, ErrorNs);

    /// <summary>The strategy and its variant, as charts and tables label it.</summary>
    public string Label => Variant.Length == 0 ? Strategy : $"{Strategy} ({Variant})";
}
