namespace PooledHttp.Workshop.Checks;

/// <summary>The learner's books reader (exercise 03): how many books the books API at <paramref name="url"/> returns, read as a stream.</summary>
public delegate Task<int> BooksExercise(HttpClient client, Uri url, CancellationToken cancellationToken);
