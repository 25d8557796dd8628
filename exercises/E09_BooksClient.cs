using PooledHttp.Workshop.Server;

namespace PooledHttp.Exercises;

// Exercise 09 · Chapter 09, "Your service"
//
// E09_BooksClient is a typed client: a service registers it with services.AddHttpClient<E09_BooksClient>(),
// and the factory makes a new instance for each request, handing it an HttpClient over a handler it shares
// and recycles. Make GetBooksAsync return the books at url, read with the pooled read (GetPooledAsync, in
// PooledHttp.Http) and deserialized straight from the lease's span. Dispose the lease before you return:
// the books are new objects, they do not point into it.
//
// The check reads 0, 5, 250 and 2,500 books through the factory and compares them with the server's, fails
// if a body was buffered whole before you read it, and expects a 404 to throw. The measurement resolves
// your client per request, as a service does, and reads 250 books. The books are
// PooledHttp.Workshop.Server.Book records, written with System.Text.Json's web defaults
// (PooledHttp.Content.PooledJson.Options).
//
// Stuck? tests/ExerciseSolutions/E09_BooksClient.cs.
public sealed class E09_BooksClient(HttpClient http)
{
    public async Task<Book[]> GetBooksAsync(Uri url, CancellationToken cancellationToken)
    {
        _ = http; // the client the factory made for this instance: yours to use
        await Task.CompletedTask;
        throw new NotImplementedException("Read the books with GetPooledAsync and deserialize them from the lease.");
    }
}
