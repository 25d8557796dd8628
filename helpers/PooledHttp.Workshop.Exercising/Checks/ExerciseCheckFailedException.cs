namespace PooledHttp.Workshop.Checks;

/// <summary>A check found the learner's code wrong; the message says what and where.</summary>
public sealed class ExerciseCheckFailedException(string message) : Exception(message);
