using System.Globalization;
using System.Reflection;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Checks;

/// <summary>Chapter 03's check: the learner's <c>E03_StreamTheBooks.CountAsync</c> counts the books from a stream, never buffering the body.</summary>
internal sealed class Exercise03Check() : LearnerCheck("E03", "E03_StreamTheBooks")
{
    /// <inheritdoc />
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => CheckAsync(LearnerCode.Bind<BooksExercise>(learner, ClassName, "CountAsync"), cancellationToken);

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
}
