using PooledHttp.Http;

namespace PooledHttp.Tests.Http;

/// <summary>
/// The token one exchange runs under is recycled for a later exchange only when nothing can still hold it: an exchange
/// with request content may leave the handler sending that content after the response is gone (dotnet/runtime issue
/// #107082), so its token must never become another exchange's.
/// </summary>
public sealed class TimeoutScopeTests
{
    [Fact]
    public void A_token_an_exchange_with_content_used_is_never_handed_to_a_later_exchange()
    {
        TimeoutScope withContent = TimeoutScope.Start(TimeSpan.FromMinutes(1), reusable: false, CancellationToken.None, CancellationToken.None);
        CancellationToken held = withContent.Token;
        withContent.Dispose();

        // Every idle scope is taken here, so a recycled one would be among them (the queue keeps at most 64).
        var later = new List<TimeoutScope>();
        for (int i = 0; i < 100; i++)
        {
            later.Add(TimeoutScope.Start(TimeSpan.FromMinutes(1), reusable: true, CancellationToken.None, CancellationToken.None));
        }

        Assert.DoesNotContain(later, scope => scope.Token == held);
        later.ForEach(scope => scope.Dispose());
    }

    [Fact]
    public void A_token_an_exchange_without_content_used_is_recycled_once_it_ended_uncancelled()
    {
        // The other half, so the test above cannot pass merely because nothing is ever recycled.
        var ended = new List<CancellationToken>();
        for (int i = 0; i < 8; i++)
        {
            TimeoutScope scope = TimeoutScope.Start(TimeSpan.FromMinutes(1), reusable: true, CancellationToken.None, CancellationToken.None);
            ended.Add(scope.Token);
            scope.Dispose();
        }

        var later = new List<TimeoutScope>();
        for (int i = 0; i < 100; i++)
        {
            later.Add(TimeoutScope.Start(TimeSpan.FromMinutes(1), reusable: true, CancellationToken.None, CancellationToken.None));
        }

        Assert.Contains(later, scope => ended.Contains(scope.Token));
        later.ForEach(scope => scope.Dispose());
    }
}
