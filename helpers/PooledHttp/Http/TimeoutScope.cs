using System.Collections.Concurrent;

namespace PooledHttp.Http;

/// <summary>
/// <see cref="HttpClient.Timeout"/> over a whole exchange, headers and body, without a new
/// <see cref="CancellationTokenSource"/> and timer per request: a timed source is reused once its
/// exchange has ended without timing out (<see cref="CancellationTokenSource.TryReset"/> disarms its
/// timer). A linked source is made only when the caller's own token can be cancelled.
/// </summary>
internal sealed class TimeoutScope : IDisposable
{
    /// <summary>Enough for the requests a process has in flight at once; more are simply not kept.</summary>
    private const int MaxIdle = 64;

    private static readonly ConcurrentQueue<TimeoutScope> Idle = new();
    private static int _idleCount;

    private readonly CancellationTokenSource _timer = new();
    private CancellationTokenSource? _linked;

    private TimeoutScope()
    {
    }

    /// <summary>Cancelled when the timeout elapses or the caller cancels.</summary>
    public CancellationToken Token { get; private set; }

    /// <summary>True when the timeout, not the caller, cancelled <see cref="Token"/>.</summary>
    public bool TimedOut => _timer.IsCancellationRequested;

    /// <summary>Starts the clock; <see cref="Timeout.InfiniteTimeSpan"/> never fires.</summary>
    public static TimeoutScope Start(TimeSpan timeout, CancellationToken caller)
    {
        TimeoutScope scope;
        if (Idle.TryDequeue(out TimeoutScope? idle))
        {
            Interlocked.Decrement(ref _idleCount);
            scope = idle;
        }
        else
        {
            scope = new TimeoutScope();
        }

        if (timeout != Timeout.InfiniteTimeSpan)
        {
            scope._timer.CancelAfter(timeout);
        }

        if (caller.CanBeCanceled)
        {
            scope._linked = CancellationTokenSource.CreateLinkedTokenSource(caller, scope._timer.Token);
            scope.Token = scope._linked.Token;
        }
        else
        {
            scope.Token = scope._timer.Token;
        }

        return scope;
    }

    /// <summary>Stops the clock; the source is kept for the next exchange unless it fired.</summary>
    public void Dispose()
    {
        _linked?.Dispose();
        _linked = null;
        Token = default;
        if (!_timer.TryReset())
        {
            _timer.Dispose(); // it fired: not reusable
            return;
        }

        if (Interlocked.Increment(ref _idleCount) <= MaxIdle)
        {
            Idle.Enqueue(this);
            return;
        }

        Interlocked.Decrement(ref _idleCount);
        _timer.Dispose();
    }
}
