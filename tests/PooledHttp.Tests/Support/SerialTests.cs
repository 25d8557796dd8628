namespace PooledHttp.Tests.Support;

/// <summary>
/// Tests that build the helpers or run BenchmarkDotNet (which builds them too) run in this collection,
/// one at a time and with no other test running: two builds of one project at once race on its
/// output files, and other tests' load would blur the benchmarks' times.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class SerialTests
{
    public const string Name = "Builds and benchmarks";
}
