using System.Reflection;
using System.Text.Json;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Checks;

/// <summary>Chapter 05's check: the learner's <c>E05_PostJson.PostAsync</c> posts the books as JSON with a Content-Length.</summary>
internal sealed class Exercise05Check() : LearnerCheck("E05", "E05_PostJson")
{
    /// <inheritdoc />
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => CheckAsync(LearnerCode.Bind<PostExercise>(learner, ClassName, "PostAsync"), cancellationToken);

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
}
