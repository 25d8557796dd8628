namespace PooledHttp.Benchmarks;

/// <summary>Chapter 08's summary of chapter 05: every request-body strategy, at S2's large payload only.</summary>
public class JourneyRequestBodies : RequestBodies
{
    /// <summary>About 2 MB of JSON.</summary>
    public override IEnumerable<int> Sizes => [2_000_000];
}
