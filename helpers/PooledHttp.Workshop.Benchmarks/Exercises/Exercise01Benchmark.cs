using BenchmarkDotNet.Attributes;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>A new <c>byte[]</c> of the learner's length, and of one byte less: where each is born shows in the collections.</summary>
/// <remarks>Not a download: it derives from <see cref="ExerciseBenchmark"/> only to load the learner's build the same way, and never uses the client.</remarks>
public class Exercise01Benchmark : ExerciseBenchmark
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
