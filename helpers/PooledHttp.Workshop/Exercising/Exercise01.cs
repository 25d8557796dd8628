using PooledHttp.Workshop.Server;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Checks;
using PooledHttp.Workshop.Measuring;

namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 01's exercise: find the smallest <c>byte[]</c> that is born in Gen2 (on the large object heap).</summary>
public sealed class Exercise01() : Exercise(new Exercise01Check(), "01-why-allocations-hurt",
    "find the smallest array that is born in Gen2")
{
    /// <inheritdoc />
    public override string? Goal => "Gen2 collections for your array, none for one byte less";

    /// <inheritdoc />
    public override bool Meets(MeasuredRow row)
    {
        ArgumentNullException.ThrowIfNull(row);
        return row.PayloadBytes == _answer ? row.Gen2 > 0 : row.Gen2 == 0;
    }

    private int? _answer;

    /// <summary>Checks the learner's <c>E01_LargeObjectThreshold.SmallestGen2Array</c>, then measures allocating it and an array one byte shorter.</summary>
    public static ExerciseResult Run() => ExerciseRunner.Run(new Exercise01(), new RunContext(), typeof(Exercise01Benchmark), new Dictionary<string, object[]>());

    /// <inheritdoc />
    public override Task<ExerciseResult> RunAloneAsync() => Task.FromResult(Run());

    /// <inheritdoc />
    internal override IReadOnlyDictionary<string, object[]> ParametersFor(ExerciseCheck check, IReadOnlyDictionary<string, object[]> asked)
    {
        _answer = check.Answer ?? throw new InvalidOperationException("The check passed without an answer.");
        return new Dictionary<string, object[]> { [nameof(Exercise01Benchmark.Size)] = [_answer.Value - 1, _answer.Value] };
    }

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(ArrayPoolCost) && r.Strategy == nameof(ArrayPoolCost.Allocate) && r.PayloadBytes is 10_000 or 100_000);

    /// <inheritdoc />
    internal override string Label(MeasuredRow row) => row.Strategy == ExerciseBenchmark.Strategy ? $"new byte[{row.PayloadBytes:N0}] (yours)" : $"new byte[{row.PayloadBytes:N0}] ({row.Benchmark})";

    /// <inheritdoc />
    internal override Plotly.NET.GenericChart Chart(string title, IEnumerable<MeasuredRow> rows)
    {
        List<MeasuredRow> all = [.. rows.OrderBy(r => r.PayloadBytes)];
        return Charts.Charts.Grouped(title, "array", "collections per 1,000 allocations", [.. all.Select(Label)], new Dictionary<string, double[]>
        {
            ["Gen0"] = [.. all.Select(r => r.Gen0)],
            ["Gen2"] = [.. all.Select(r => r.Gen2)],
        });
    }
}
