namespace PooledHttp.Tests.Support;

/// <summary>
/// Tests that set a variable the whole process reads (the run context, the profile) run in this collection, one at a
/// time and after every other test, since a test running beside them, or a process it starts, would read their
/// value, and the tests that hold the workshop's machine-wide locks with short timeouts, which a notebook's build or
/// runtime fetch beside them would hold for longer. The library's packaging test is here too: it restores and builds
/// a project of its own with the SDK, the heaviest few seconds of that test project.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class SerialTests
{
    public const string Name = "Builds and benchmarks";
}
