using PooledHttp.Workshop.Server;

namespace PooledHttp.Exercises;

// Exercise 05 · Chapter 05, "Request bodies without the garbage"
//
// POST books to url as JSON, with a Content-Length (not chunked), and return the number the
// server answers with: the sink replies with the count of bytes it received, as text. The goal of
// the measurement: about 2 MB (2,000,000 bytes) of JSON for under 8 KiB allocated per POST.
//
// The check reads back what went over the wire: it must be a JSON array of the same books, in
// order, and its length must match the Content-Length you declared.
//
// Hints: serialize into pooled memory, send a content whose length is known, dispose what you
// rented only after the send. Stuck? tests/ExerciseSolutions/E05_PostJson.cs.
public static class E05_PostJson
{
    public static async Task<long> PostAsync(HttpClient client, Uri url, Book[] books, CancellationToken cancellationToken)
    {
        await Task.CompletedTask;
        throw new NotImplementedException("Post the books.");
    }
}
