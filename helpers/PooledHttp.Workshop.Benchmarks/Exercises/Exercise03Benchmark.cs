using System.Globalization;
using BenchmarkDotNet.Attributes;
using PooledHttp.Workshop.Checks;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>The learner's <c>E03_StreamTheBooks.CountAsync</c> against the books API.</summary>
public class Exercise03Benchmark : ExerciseBenchmark
{
    private BooksExercise _count = null!;
    private Uri _url = null!;

    /// <summary>How many books the API returns (named as in <see cref="CompletionOptions"/>, so the rows line up).</summary>
    public int Books { get; set; }

    /// <summary>Your reader.</summary>
    [Benchmark]
    public Task<int> Yours() => _count(Client, _url, CancellationToken.None);

    /// <inheritdoc />
    protected override void PrepareExercise()
    {
        _count = LearnerCode.Bind<BooksExercise>(Learner, "E03_StreamTheBooks", "CountAsync");
        _url = new Uri(BenchmarkServer.Address, string.Create(CultureInfo.InvariantCulture, $"/books?count={Books}"));
    }
}
