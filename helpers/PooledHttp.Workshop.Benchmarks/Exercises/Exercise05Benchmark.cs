using BenchmarkDotNet.Attributes;
using PooledHttp.Workshop.Checks;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>The learner's <c>E05_PostJson.PostAsync</c>, posting the catalogue books that serialize to about <see cref="Size"/> bytes.</summary>
public class Exercise05Benchmark : ExerciseBenchmark
{
    private PostExercise _post = null!;
    private Book[] _books = null!;
    private Uri _sink = null!;

    /// <summary>About how much JSON, in bytes.</summary>
    public int Size { get; set; }

    /// <summary>Your POST.</summary>
    [Benchmark]
    public Task<long> Yours() => _post(Client, _sink, _books, CancellationToken.None);

    /// <inheritdoc />
    protected override void PrepareExercise()
    {
        _post = LearnerCode.Bind<PostExercise>(Learner, "E05_PostJson", "PostAsync");
        _books = Book.Catalogue(RequestBodies.BooksFor(Size));
        _sink = new Uri(BenchmarkServer.Address, "/sink");
    }
}
