namespace PooledHttp.Workshop.Checks;

/// <summary>
/// The learner's read loop (exercise 02): read from <paramref name="body"/> until
/// <paramref name="destination"/> is full or the body ends, and return how many bytes were read.
/// </summary>
public delegate Task<int> ReadLoopExercise(Stream body, Memory<byte> destination, CancellationToken cancellationToken);
