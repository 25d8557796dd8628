using System.Globalization;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Checks;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 03's exercise: count the books without buffering the body first.</summary>
public sealed class Exercise03() : Exercise(new Exercise03Check(), "03-httpcompletionoption",
    "count the books while the body streams in, never buffered whole")
{
    /// <summary>Checks the learner's <c>E03_StreamTheBooks.CountAsync</c>, then measures it reading <paramref name="books"/> books from <paramref name="server"/>.</summary>
    /// <param name="server">The notebook's server.</param>
    /// <param name="books">How many books the API returns: S4 measured 5 and 250.</param>
    public static ExerciseResult Run(LocalServer server, int books = 250)
    {
        ArgumentNullException.ThrowIfNull(server);
        return ExerciseRunner.Run(new Exercise03(), server.Context, typeof(Exercise03Benchmark), new Dictionary<string, object[]> { [nameof(Exercise03Benchmark.Books)] = [books] });
    }

    /// <inheritdoc />
    public override Task<ExerciseResult> RunAloneAsync() => OnLocalServerAsync(server => Run(server));

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(CompletionOptions) && SameCase(r, yours));
}
