namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 01's exercise: find the smallest <c>byte[]</c> that is born in Gen2 (on the large object heap).</summary>
public sealed class Exercise01() : Exercise("E01", SmallestGen2Array.ClassName, "01-why-allocations-hurt",
    "find the smallest array that is born in Gen2")
{
    /// <summary>The learner's answer: the getter of the property <c>SmallestGen2Array</c>.</summary>
    private static readonly LearnerMethod<Func<int>> SmallestGen2Array = new("E01_LargeObjectThreshold", "get_SmallestGen2Array");

    private int? _answer;

    /// <inheritdoc />
    public override string? Goal => "Gen2 collections for your array, none for one byte less";

    /// <inheritdoc />
    public override bool Meets(MeasuredRow row)
    {
        ArgumentNullException.ThrowIfNull(row);
        return row.PayloadBytes == _answer ? row.Gen2 > 0 : row.Gen2 == 0;
    }

    /// <summary>Checks the learner's <c>E01_LargeObjectThreshold.SmallestGen2Array</c>, then measures allocating it and an array one byte shorter.</summary>
    public static ExerciseResult Run() => ExerciseRunner.Run(new Exercise01(), new RunContext(), typeof(Benchmark), new Dictionary<string, object[]>());

    /// <inheritdoc />
    public override Task<ExerciseResult> RunAloneAsync() => Task.FromResult(Run());

    /// <summary>The learner's answer is the smallest <c>byte[]</c> born in Gen2.</summary>
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => Task.FromResult(Check(Answer(learner)!.Value));

    /// <summary>The check itself, for any answer.</summary>
    internal static string Check(int length)
    {
        if (length == 0)
        {
            throw new NotImplementedException("SmallestGen2Array is still 0: find the answer and write it");
        }

        if (length < 2)
        {
            throw new ExerciseCheckFailedException($"{length} is not an array length worth trying: the answer is somewhere between a few bytes and a few hundred thousand.");
        }

        int born = GC.GetGeneration(new byte[length]);
        int shorter = GC.GetGeneration(new byte[length - 1]);
        if (born != 2)
        {
            throw new ExerciseCheckFailedException($"new byte[{length:N0}] is born in Gen{born}: too small. Try larger.");
        }

        if (shorter == 2)
        {
            throw new ExerciseCheckFailedException($"new byte[{length:N0}] is born in Gen2, and so is new byte[{length - 1:N0}]: the smallest is smaller still.");
        }

        return $"new byte[{length:N0}] is born in Gen2 and new byte[{length - 1:N0}] in Gen{shorter}, in the check process on .NET {Environment.Version}.";
    }

    /// <inheritdoc />
    internal override int? Answer(Assembly learner) => SmallestGen2Array.Bind(learner)();

    /// <inheritdoc />
    internal override IReadOnlyDictionary<string, object[]> ParametersFor(ExerciseCheck check, IReadOnlyDictionary<string, object[]> asked)
    {
        _answer = check.Answer ?? throw new InvalidOperationException("The check passed without an answer.");
        return new Dictionary<string, object[]> { [nameof(Benchmark.Size)] = [_answer.Value - 1, _answer.Value] };
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

    /// <summary>A new <c>byte[]</c> of the learner's length, and of one byte less: where each is born shows in the collections.</summary>
    /// <remarks>Not a download: it derives from <see cref="ExerciseBenchmark"/> only to load the learner's build the same way, and never uses the client.</remarks>
    public class Benchmark : ExerciseBenchmark
    {
        /// <summary>The array length: the learner's answer, and one less.</summary>
        public int Size { get; set; }

        /// <summary>A new array of <see cref="Size"/> bytes, as <c>ArrayPoolCost.Allocate</c> does.</summary>
        [Benchmark]
        public byte[] Yours() => new byte[Size];

        /// <inheritdoc />
        protected override void PrepareExercise()
        {
        }
    }
}
