namespace PooledHttp.Tests.Support;

/// <summary>
/// The tests that build and run the load probe (<c>helpers/PooledHttp.Workshop.LoadProbe</c>): one at a time, because two builds of the probe at once
/// race on its output folder, but beside every other collection. Each has a server of its own, and nothing else
/// that runs in parallel builds the kit.
/// </summary>
[CollectionDefinition(Name)]
public sealed class LoadProbeRuns
{
    public const string Name = "Load probe";
}
