namespace PooledHttp.Workshop.Checks;

/// <summary>The learner's request (exercise 06): a POST of <paramref name="content"/> to <paramref name="url"/> that goes over HTTP/2 to a server that speaks nothing else.</summary>
public delegate HttpRequestMessage RequestExercise(Uri url, HttpContent content);
