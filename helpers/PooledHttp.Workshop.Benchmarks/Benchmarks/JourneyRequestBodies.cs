namespace PooledHttp.Workshop.Benchmarks;

/// <summary>Chapter 08's summary of chapter 05: every request-body strategy, at S2's large payload only.</summary>
public class JourneyRequestBodies : RequestBodies
{
    /// <summary>About 2 MB of JSON.</summary>
    protected override IEnumerable<int> SizesToMeasure() => [2_000_000];
}
