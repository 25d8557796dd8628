namespace PooledHttp.Workshop.Exercising;

/// <summary>An exercise benchmark that downloads one body per operation: <see cref="Size"/> bytes, framed as <see cref="Framing"/> says.</summary>
public abstract class BodyExerciseBenchmark : ExerciseBenchmark
{
    /// <summary>The body size in bytes.</summary>
    public int Size { get; set; }

    /// <summary>Chunked, or with a Content-Length.</summary>
    public Framing Framing { get; set; }

    /// <summary>The body's address on the notebook's server.</summary>
    protected Uri Url { get; private set; } = null!;

    /// <inheritdoc />
    protected sealed override void PrepareExercise()
    {
        Url = BenchmarkServer.Bytes(Size, contentLength: Framing == Framing.ContentLength);
        BindLearner();
    }

    /// <summary>Binds the learner's method.</summary>
    protected abstract void BindLearner();
}
