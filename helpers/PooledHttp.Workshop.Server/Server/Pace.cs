namespace PooledHttp.Workshop.Server;

/// <summary>
/// How <c>LocalServer</c> spreads a body over time: <see cref="Writes"/> flushed writes with
/// <see cref="DelayMs"/> between them. On loopback a body written at once arrives at once, and downloads
/// "in flight together" then finish one after another; a paced body keeps them in flight together.
/// </summary>
/// <param name="Writes">How many writes a body is cut into.</param>
/// <param name="DelayMs">The pause after each write, in milliseconds.</param>
public readonly record struct Pace(int Writes, int DelayMs)
{
    /// <summary>The workshop's load: 16 writes, 2 ms apart, so a body takes at least 32 ms whatever its size.</summary>
    public static Pace Network { get; } = new(16, 2);
}
