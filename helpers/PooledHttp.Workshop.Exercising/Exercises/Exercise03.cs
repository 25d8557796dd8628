using System.Globalization;

namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 03's exercise: count the books without buffering the body first.</summary>
public sealed class Exercise03() : Exercise("E03", CountBooks.ClassName, "03-httpcompletionoption",
    "count the books while the body streams in, never buffered whole")
{
    /// <summary>The learner's books reader, bound by the check and the benchmark.</summary>
    private static readonly LearnerMethod<BooksExercise> CountBooks = new("E03_StreamTheBooks", "CountAsync");

    /// <summary>Checks the learner's <c>E03_StreamTheBooks.CountAsync</c>, then measures it reading <paramref name="books"/> books from <paramref name="server"/>.</summary>
    /// <param name="server">The notebook's server.</param>
    /// <param name="books">How many books the API returns: S4 measured 5 and 250.</param>
    public static ExerciseResult Run(LocalServer server, int books = 250)
    {
        ArgumentNullException.ThrowIfNull(server);
        return ExerciseRunner.Run(new Exercise03(), server.Context, typeof(Benchmark), new Dictionary<string, object[]> { [nameof(Benchmark.Books)] = [books] });
    }

    /// <inheritdoc />
    public override Task<ExerciseResult> RunAloneAsync() => OnLocalServerAsync(server => Run(server));

    /// <summary>The learner counts the books from a stream, never buffering the body.</summary>
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => CheckAsync(CountBooks.Bind(learner), cancellationToken);

    /// <summary>The check itself, for any reader: the tests hand it known-bad readers too.</summary>
    internal static async Task<string> CheckAsync(BooksExercise count, CancellationToken cancellationToken)
    {
        await using LocalServer server = LocalServer.Start();
        foreach (int books in new[] { 0, 5, 250, 4_000 })
        {
            var observer = new ObservingHandler();
            using var client = new HttpClient(observer);
            int counted = await count(client, server.Url(string.Create(CultureInfo.InvariantCulture, $"books?count={books}")), cancellationToken).ConfigureAwait(false);
            string what = $"{books:N0} books";
            if (counted != books)
            {
                throw new ExerciseCheckFailedException($"{what}: counted {counted:N0}.");
            }

            if (observer.Responses.Any(r => r.Buffered))
            {
                throw new ExerciseCheckFailedException($"{what}: the body was buffered whole before you read it. Ask for ResponseHeadersRead, and read the content as a stream.");
            }

            if (observer.Responses.Any(r => !r.Disposed))
            {
                throw new ExerciseCheckFailedException($"{what}: the response was not disposed. With ResponseHeadersRead it holds the connection until you dispose it (chapter 03, section 7).");
            }
        }

        return "Counts 0, 5, 250 and 4,000 books right, reading each body as a stream (never buffered whole) and disposing every response.";
    }

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(CompletionOptions) && SameCase(r, yours));

    /// <summary>The learner's reader against the books API.</summary>
    public class Benchmark : ExerciseBenchmark
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
            _count = CountBooks.Bind(Learner);
            _url = new Uri(BenchmarkServer.Address, string.Create(CultureInfo.InvariantCulture, $"/books?count={Books}"));
        }
    }
}
