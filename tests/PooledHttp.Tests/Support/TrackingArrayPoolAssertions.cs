using System.Runtime.CompilerServices;

namespace PooledHttp.Tests.Support;

/// <summary>
/// The tests' assertion over the workshop's <see cref="TrackingArrayPool"/> (the exercises check
/// learners' code with the same pool, so both hold code to one standard).
/// </summary>
internal static class TrackingArrayPoolAssertions
{
    /// <summary>Fails unless every rented array came back exactly once.</summary>
    public static void AssertBalanced(this TrackingArrayPool pool, [CallerMemberName] string? test = null)
    {
        Assert.True(pool.Imbalance is null, $"{test}: {pool.Imbalance}");
        Assert.Equal(pool.Rents, pool.Returns);
    }
}
