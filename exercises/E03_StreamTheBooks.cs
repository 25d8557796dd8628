using PooledHttp.Workshop.Server;

namespace PooledHttp.Exercises;

// Exercise 03 · Chapter 03, "Don't buffer what you stream"
//
// Count the books the books API returns at url, reading the JSON as it arrives: the body must
// never sit whole in a buffer before you read it, and the response must be disposed.
//
// The check watches the client you are given: it fails if the body was buffered whole (the
// default completion option does that, and so do ReadAsStringAsync and ReadAsByteArrayAsync) or
// if a response was left undisposed. The books are PooledHttp.Workshop.Server.Book records; the server
// writes them with System.Text.Json's web defaults (camelCase).
//
// Stuck? tests/ExerciseSolutions/E03_StreamTheBooks.cs.
public static class E03_StreamTheBooks
{
    public static async Task<int> CountAsync(HttpClient client, Uri url, CancellationToken cancellationToken)
    {
        await Task.CompletedTask;
        throw new NotImplementedException("Count the books from the stream.");
    }
}
