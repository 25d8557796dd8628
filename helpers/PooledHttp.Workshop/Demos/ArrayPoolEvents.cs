using System.Buffers;
using System.Diagnostics.Tracing;

namespace PooledHttp.Workshop.Demos;

/// <summary>
/// Listens to the runtime's <c>System.Buffers.ArrayPoolEventSource</c> and keeps the events that
/// mean "this pool allocated" or "this pool let an array go", for one pool only: the tool S1 used
/// PerfView for, in a notebook cell. Dispose it to stop listening.
/// </summary>
/// <remarks>
/// EventSource events reach an <see cref="EventListener"/> synchronously, on the thread that rented
/// or returned, so the list is complete as soon as the call that caused an event has returned.
/// </remarks>
public sealed class ArrayPoolEvents : EventListener
{
    private const string SourceName = "System.Buffers.ArrayPoolEventSource";

    // Field initialisers run before EventListener's constructor, which may already deliver events;
    // _poolId is set just after it, and events before that are ignored.
    private readonly object _gate = new();
    private readonly List<ArrayPoolEvent> _events = [];
    private int? _poolId;

    private ArrayPoolEvents()
    {
    }

    /// <summary>The events seen so far, oldest first.</summary>
    public IReadOnlyList<ArrayPoolEvent> Events
    {
        get
        {
            lock (_gate)
            {
                return _events.ToArray();
            }
        }
    }

    /// <summary>Starts listening to the events of <paramref name="pool"/>.</summary>
    public static ArrayPoolEvents Of(ArrayPool<byte> pool)
    {
        ArgumentNullException.ThrowIfNull(pool);
        // The event source identifies a pool by its hash code.
        return new ArrayPoolEvents { _poolId = pool.GetHashCode() };
    }

    /// <inheritdoc />
    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        if (eventSource.Name == SourceName)
        {
            // Informational: BufferAllocated and BufferDropped, not the per-rent Verbose events.
            EnableEvents(eventSource, EventLevel.Informational);
        }
    }

    /// <inheritdoc />
    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        if (_poolId is not { } poolId || eventData.Payload is null || eventData.PayloadNames is null
            || eventData.EventName is not ("BufferAllocated" or "BufferDropped"))
        {
            return;
        }

        int Field(string name) => Convert.ToInt32(eventData.Payload[eventData.PayloadNames.IndexOf(name)], System.Globalization.CultureInfo.InvariantCulture);
        if (Field("poolId") != poolId)
        {
            return;
        }

        string reason = (eventData.EventName, Field("reason")) switch
        {
            ("BufferAllocated", 0) => "allocated to be pooled",
            ("BufferAllocated", 1) => "allocated: larger than the pool keeps",
            ("BufferAllocated", 2) => "allocated: the pool had none left of that size",
            ("BufferDropped", 0) => "dropped on return: the pool was full",
            ("BufferDropped", 1) => "dropped on return: larger than the pool keeps",
            (_, int other) => $"reason {other}",
        };
        lock (_gate)
        {
            _events.Add(new ArrayPoolEvent(eventData.EventName, Field("bufferSize"), reason));
        }
    }
}

/// <summary>One event of <see cref="ArrayPoolEvents"/>.</summary>
/// <param name="Name">"BufferAllocated" or "BufferDropped".</param>
/// <param name="BufferSize">The array's length.</param>
/// <param name="Reason">Why, in words.</param>
public sealed record ArrayPoolEvent(string Name, int BufferSize, string Reason);
