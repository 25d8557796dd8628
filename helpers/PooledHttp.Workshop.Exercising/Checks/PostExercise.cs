namespace PooledHttp.Workshop.Checks;

/// <summary>
/// The learner's POST (exercise 05): send <paramref name="books"/> as JSON to <paramref name="url"/>
/// with a Content-Length, and return the number the server answers with (the bytes it received).
/// </summary>
public delegate Task<long> PostExercise(HttpClient client, Uri url, Book[] books, CancellationToken cancellationToken);
