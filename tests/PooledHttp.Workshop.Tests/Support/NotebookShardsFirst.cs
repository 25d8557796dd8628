using Xunit;
using Xunit.Abstractions;
using Xunit.Sdk;

[assembly: TestCollectionOrderer("PooledHttp.Tests.Support.NotebookShardsFirst", "PooledHttp.Workshop.Tests")]

namespace PooledHttp.Tests.Support;

/// <summary>
/// Starts the notebook shards before every other collection, in xunit's own order after them.
/// </summary>
/// <remarks>
/// xunit 2 queues the parallel collections in this order and starts as many tests as <c>maxParallelThreads</c> allows;
/// later ones start as earlier ones finish. The shards are the run's longest tests by far (three to four minutes each):
/// queued behind short collections, one of them started eight minutes into a run and kept the others waiting at the
/// end with a core idle. The collections that run alone (<c>SerialTests</c>) still come after all of these.
/// </remarks>
public sealed class NotebookShardsFirst : ITestCollectionOrderer
{
    /// <summary>The shard classes' namespace and name, as their collections are named (one per class).</summary>
    private const string ShardPrefix = "PooledHttp.Tests.Notebooks.NotebookRun";

    public IEnumerable<ITestCollection> OrderTestCollections(IEnumerable<ITestCollection> testCollections)
    {
        IEnumerable<ITestCollection> inXunitsOrder = new DefaultTestCollectionOrderer().OrderTestCollections(testCollections);
        ILookup<bool, ITestCollection> byShard = inXunitsOrder.ToLookup(IsShard);
        return [.. byShard[true], .. byShard[false]];
    }

    /// <summary>Whether <paramref name="collection"/> is one of <see cref="Notebooks.NotebookRun"/>'s shards.</summary>
    public static bool IsShard(ITestCollection collection)
        => collection.DisplayName.Contains(ShardPrefix, StringComparison.Ordinal) && collection.DisplayName.EndsWith("Shard", StringComparison.Ordinal);
}
