using PooledHttp.Workshop.Server;

namespace PooledHttp.Tests.Support;

/// <summary>What the tests that start a terminal tool put in its environment.</summary>
internal static class ToolEnvironment
{
    /// <summary>
    /// An empty run context, which is none (<see cref="RunContext.Current"/>): the tool starts as from a learner's
    /// terminal, whatever context the test process inherited.
    /// </summary>
    public static readonly IReadOnlyDictionary<string, string> WithoutRunContext = new Dictionary<string, string> { [RunContext.Variable] = string.Empty };
}
