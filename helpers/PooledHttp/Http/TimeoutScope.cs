using System.Collections.Concurrent;

namespace PooledHttp.Http;

/// <summary>
/// One token for a whole exchange, headers and body, cancelled by whichever comes first: the caller's token, the
/// client's pending-requests token (<see cref="HttpClient.CancelPendingRequests"/>, <see cref="HttpClient.Dispose(bool)"/>)
/// or <see cref="HttpClient.Timeout"/>. <see cref="HttpClient"/> builds a linked source per request for the same
/// purpose; this one reuses its source once an exchange without request content has ended uncancelled
/// (<see cref="CancellationTokenSource.TryReset"/> disarms the timer) and reaches the two outer tokens through
/// registrations, which those long-lived sources recycle. An exchange with request content never hands its source
/// on: the handler may still be sending that content with the token after the response is gone (an HTTP/2 or
/// <c>Expect: 100-continue</c> body, dotnet/runtime issue #107082), and a recycled token would then belong to another
/// exchange; its source is disposed instead, as <see cref="HttpClient"/> disposes its own.
/// </summary>
internal sealed class TimeoutScope : IDisposable
{
    /// <summary>Enough for the requests a process has in flight at once; more are simply not kept.</summary>
    private const int MaxIdle = 64;

    private static readonly ConcurrentQueue<TimeoutScope> Idle = new();
    private static readonly Action<object?> CancelSource = static source => ((CancellationTokenSource)source!).Cancel();
    private static int _idleCount;

    private readonly CancellationTokenSource _source = new();
    private CancellationTokenRegistration _fromCaller;
    private CancellationTokenRegistration _fromClient;
    private long _deadline;
    private bool _reusable;

    private TimeoutScope()
    {
    }

    /// <summary>Cancelled when the timeout elapses, the caller cancels or the client cancels its pending requests.</summary>
    public CancellationToken Token => _source.Token;

    /// <summary>
    /// Whether the timeout, not a token, ended the exchange: HttpClient's own test (its deadline has passed and the
    /// caller did not cancel), so a failure that follows the deadline is reported as the timeout whatever form it took.
    /// </summary>
    public bool TimedOut(CancellationToken caller) => !caller.IsCancellationRequested && Environment.TickCount64 >= _deadline;

    /// <summary>Starts the clock; <see cref="Timeout.InfiniteTimeSpan"/> never fires.</summary>
    /// <param name="timeout">The client's timeout.</param>
    /// <param name="reusable">Whether nothing can hold the token once the exchange is over: false when the request has content.</param>
    /// <param name="caller">The caller's token.</param>
    /// <param name="client">The client's pending-requests token.</param>
    public static TimeoutScope Start(TimeSpan timeout, bool reusable, CancellationToken caller, CancellationToken client)
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

        scope._deadline = long.MaxValue;
        scope._reusable = reusable;
        if (timeout != Timeout.InfiniteTimeSpan)
        {
            scope._deadline = Environment.TickCount64 + (long)timeout.TotalMilliseconds;
            scope._source.CancelAfter(timeout);
        }

        // A token already cancelled runs the callback at once, here: the exchange then starts cancelled.
        scope._fromCaller = caller.UnsafeRegister(CancelSource, scope._source);
        scope._fromClient = client.UnsafeRegister(CancelSource, scope._source);
        return scope;
    }

    /// <summary>Stops the clock; the source is kept for the next exchange unless it was cancelled.</summary>
    public void Dispose()
    {
        // Dispose waits for a callback already running, so none can cancel the source after it is reused.
        _fromCaller.Dispose();
        _fromClient.Dispose();
        _fromCaller = default;
        _fromClient = default;
        if (!_reusable || !_source.TryReset())
        {
            _source.Dispose(); // cancelled, or its token may still be in the handler's hands
            return;
        }

        if (Interlocked.Increment(ref _idleCount) <= MaxIdle)
        {
            Idle.Enqueue(this);
            return;
        }

        Interlocked.Decrement(ref _idleCount);
        _source.Dispose();
    }
}
