using System.Text.Json;

namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 05's exercise: post about 2 MB of JSON with a Content-Length while allocating under 8 KiB.</summary>
public sealed class Exercise05() : Exercise("E05", Post.ClassName, "05-request-bodies",
    "post 2 MB of JSON with a Content-Length while allocating under 8 KiB")
{
    /// <summary>The learner's POST, bound by the check and the benchmark.</summary>
    private static readonly LearnerMethod<PostExercise> Post = new("E05_PostJson", "PostAsync");

    /// <inheritdoc />
    public override long? AllocationTarget => 8 * 1024;

    /// <summary>Checks the learner's <c>E05_PostJson.PostAsync</c>, then measures it posting about <paramref name="jsonBytes"/> of JSON to <paramref name="server"/>'s sink.</summary>
    /// <param name="server">The notebook's server.</param>
    /// <param name="jsonBytes">About how much JSON to post, in bytes: as many catalogue books as serialize to that.</param>
    public static ExerciseResult Run(LocalServer server, int jsonBytes = 2_000_000)
    {
        ArgumentNullException.ThrowIfNull(server);
        return ExerciseRunner.Run(new Exercise05(), server.Context, typeof(Benchmark), new Dictionary<string, object[]> { [nameof(Benchmark.Size)] = [jsonBytes] });
    }

    /// <inheritdoc />
    public override Task<ExerciseResult> RunAloneAsync() => OnLocalServerAsync(server => Run(server));

    /// <summary>The learner posts the books as JSON with a Content-Length.</summary>
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => CheckAsync(Post.Bind(learner), cancellationToken);

    /// <summary>The check itself, for any POST: the tests hand it known-bad ones too.</summary>
    internal static async Task<string> CheckAsync(PostExercise post, CancellationToken cancellationToken)
    {
        await using LocalServer server = LocalServer.Start();
        foreach (int count in new[] { 0, 1, 1_500 })
        {
            Book[] books = Book.Catalogue(count);
            var observer = new ObservingHandler();
            using var client = new HttpClient(observer);
            long answered = await post(client, server.Url("sink"), books, cancellationToken).ConfigureAwait(false);
            string what = $"{count:N0} book(s)";
            if (observer.Requests.Count != 1)
            {
                throw new ExerciseCheckFailedException($"{what}: {observer.Requests.Count} requests with a body were sent; send one.");
            }

            ObservingHandler.ObservedRequest sent = observer.Requests[0];
            byte[] json = sent.Sent;
            if (sent.DeclaredLength is null)
            {
                throw new ExerciseCheckFailedException($"{what}: the body went chunked, without a Content-Length. Give the content a length the handler can ask for (TryComputeLength, or a content over a buffer of known size).");
            }

            if (sent.DeclaredLength != json.Length || answered != json.Length)
            {
                throw new ExerciseCheckFailedException($"{what}: declared {sent.DeclaredLength:N0} B, sent {json.Length:N0} B, and you returned {answered:N0}; all three should agree (return the number the sink answers with).");
            }

            Book[]? back;
            try
            {
                back = JsonSerializer.Deserialize<Book[]>(json, JsonSerializerOptions.Web);
            }
            catch (JsonException e)
            {
                throw new ExerciseCheckFailedException($"{what}: the body is not a JSON array of books: {e.Message}");
            }

            if (back is null || !back.SequenceEqual(books))
            {
                throw new ExerciseCheckFailedException($"{what}: the JSON does not hold the books you were given, in order.");
            }
        }

        return "Posts 0, 1 and 1,500 books as JSON that reads back as the same books, in one request each, with a Content-Length that matches the bytes sent and the sink's answer.";
    }

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(RequestBodies) && SameCase(r, yours));

    /// <summary>The learner's POST, posting the catalogue books that serialize to about <see cref="Size"/> bytes.</summary>
    public class Benchmark : ExerciseBenchmark
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
            _post = Post.Bind(Learner);
            _books = Book.Catalogue(RequestBodies.BooksFor(Size));
            _sink = new Uri(BenchmarkServer.Address, "/sink");
        }
    }
}
