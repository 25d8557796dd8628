namespace PooledHttp.Workshop.Checks;

/// <summary>The learner's typed client's one method (exercise 09), bound to an instance the factory made.</summary>
public delegate Task<Book[]> TypedBooksExercise(Uri url, CancellationToken cancellationToken);
