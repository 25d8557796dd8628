namespace PooledHttp.Tests.Support;

/// <summary>
/// Tests that set a variable the whole process reads (the run context, the profile) run in this collection, one at a
/// time and after every other test, since a test running beside them, or a process it starts, would read their
/// value. The library's packaging test is here too: it packs the library, which no other build may write meanwhile.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class SerialTests
{
    public const string Name = "Builds and benchmarks";
}
