using Xunit;
using Xunit.Abstractions;
using Xunit.Sdk;

[assembly: TestCollectionOrderer("PooledHttp.Tests.Support.NotebookShardsFirst", "PooledHttp.Workshop.Tests")]

namespace PooledHttp.Tests.Support;

/// <summary>
/// Starts the notebook shards before every other collection; the others keep xunit's own order.
/// </summary>
/// <remarks>
/// xunit 2 hands the parallel collections to the thread pool in this order and runs as many collections at once as
/// <c>maxParallelThreads</c> allows; the others wait for one to finish. The pool promises no order, but in practice
/// it keeps this one: in a fresh-clone run the three shards started first and nothing else started before one
/// ended. The shards are the run's longest collections by far (three to four minutes each alone, about six to seven
/// beside each other): queued behind short collections, one of them once started eight minutes into a run and ran
/// on alone at the end with a core idle. The collections that run alone (<c>SerialTests</c>) still come after all
/// of these.
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
