using System.Diagnostics.Tracing;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;

namespace PooledHttp.Workshop.Watching;

/// <summary>
/// Attaches to a running .NET process as <c>dotnet-counters</c> and <c>dotnet-trace</c> do, through the
/// diagnostics IPC channel every .NET process opens (Microsoft.Diagnostics.NETCore.Client), and reads an
/// EventPipe session with three providers: the runtime's counters (<c>System.Runtime</c>, one batch per
/// second), the <c>ArrayPool</c> events of the runtime's shared pools (<c>System.Buffers.ArrayPoolEventSource</c>),
/// and the library's own meter (<c>PooledHttp</c>: the body pools' rents, hits and misses, and refused returns), which <c>System.Diagnostics.Metrics</c> publishes to a session that names it. Nothing is
/// added to the watched process: it is the same channel a production server offers.
/// </summary>
/// <remarks>
/// The shell equivalents, for a server: <c>dotnet-counters monitor -p PID --counters System.Runtime,PooledHttp</c>, and
/// <c>dotnet-trace collect -p PID --providers System.Buffers.ArrayPoolEventSource</c> (see <see cref="CountersCommand"/>).
/// </remarks>
public static class ProcessWatch
{
    /// <summary>The runtime's counter provider.</summary>
    public const string RuntimeProvider = "System.Runtime";

    /// <summary>The shared pools' event provider.</summary>
    public const string ArrayPoolProvider = "System.Buffers.ArrayPoolEventSource";

    /// <summary>
    /// The provider through which <c>System.Diagnostics.Metrics</c> meters reach a session: it publishes the meters a
    /// session names in its <c>Metrics</c> argument (dotnet/runtime, <c>MetricsEventSource.cs</c>).
    /// </summary>
    public const string MetricsProvider = "System.Diagnostics.Metrics";

    /// <summary>The library's meter (<c>PooledHttp.Buffers.PoolMetrics</c>).</summary>
    public const string LibraryMeter = "PooledHttp";

    /// <summary><c>MetricsEventSource</c>'s keyword for the interval's values (<c>TimeSeriesValues</c>).</summary>
    private const long TimeSeriesValues = 0x2;

    /// <summary>The counters' interval: dotnet-counters' default refresh.</summary>
    private const int IntervalSeconds = 1;

    /// <summary>How long to wait for the process's diagnostics channel to appear: a starting runtime opens it within milliseconds.</summary>
    private static readonly TimeSpan ConnectTimeout = TimeSpan.FromSeconds(10);

    /// <summary>The dotnet-counters command that shows the same counters for process <paramref name="processId"/>.</summary>
    public static string CountersCommand(int processId)
        => $"dotnet-counters monitor -p {processId} --counters {RuntimeProvider}[alloc-rate,gen-2-gc-count,loh-size,total-pause-time-by-gc],{LibraryMeter}";

    /// <summary>The dotnet-trace command that records the same pool events for process <paramref name="processId"/>.</summary>
    public static string TraceCommand(int processId)
        => $"dotnet-trace collect -p {processId} --providers {ArrayPoolProvider}:0:5";

    /// <summary>
    /// Watches process <paramref name="processId"/> until it exits or <paramref name="cancellationToken"/> fires,
    /// calling <paramref name="onInterval"/> with every interval so far each time one completes.
    /// </summary>
    /// <returns>Every interval seen.</returns>
    /// <exception cref="TimeoutException">The process opened no diagnostics channel in time (it exited, or diagnostics are disabled with DOTNET_EnableDiagnostics=0).</exception>
    public static async Task<IReadOnlyList<CounterSecond>> WatchAsync(int processId, Action<IReadOnlyList<CounterSecond>>? onInterval, CancellationToken cancellationToken)
    {
        var client = new DiagnosticsClient(processId);
        EventPipeProvider[] providers =
        [
            new(RuntimeProvider, EventLevel.Informational, keywords: 0, new Dictionary<string, string> { ["EventCounterIntervalSec"] = IntervalSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture) }),
            new(ArrayPoolProvider, EventLevel.Verbose),
            new(MetricsProvider, EventLevel.Informational, TimeSeriesValues, new Dictionary<string, string>
            {
                ["SessionId"] = Guid.NewGuid().ToString("N"),
                ["Metrics"] = LibraryMeter,
                ["RefreshInterval"] = IntervalSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture),
                ["MaxTimeSeries"] = "100",
                ["MaxHistograms"] = "10",
            }),
        ];
        using EventPipeSession session = await StartAsync(client, processId, providers, cancellationToken).ConfigureAwait(false);
        var intervals = new IntervalBuilder(onInterval);
        using CancellationTokenRegistration stop = cancellationToken.Register(() => _ = StopQuietlyAsync(session));
        using var source = new EventPipeEventSource(session.EventStream);
        source.Dynamic.All += intervals.Add;
        // Process() returns when the stream ends: the process exited, or the session was stopped.
        await Task.Run(source.Process, CancellationToken.None).ConfigureAwait(false);
        return intervals.All;
    }

    /// <summary>Starts the session, retrying while the process's runtime has not opened its diagnostics channel yet.</summary>
    private static async Task<EventPipeSession> StartAsync(DiagnosticsClient client, int processId, EventPipeProvider[] providers, CancellationToken cancellationToken)
    {
        DateTime giveUp = DateTime.UtcNow + ConnectTimeout;
        while (true)
        {
            try
            {
                return await client.StartEventPipeSessionAsync(providers, requestRundown: false, circularBufferMB: 64, cancellationToken).ConfigureAwait(false);
            }
            catch (ServerNotAvailableException) when (DateTime.UtcNow < giveUp)
            {
                await Task.Delay(50, cancellationToken).ConfigureAwait(false);
            }
            catch (ServerNotAvailableException e)
            {
                throw new TimeoutException($"Process {processId} opened no diagnostics channel within {ConnectTimeout.TotalSeconds:0} s: has it exited, or is DOTNET_EnableDiagnostics=0 set?", e);
            }
        }
    }

    private static async Task StopQuietlyAsync(EventPipeSession session)
    {
        try
        {
            await session.StopAsync(CancellationToken.None).ConfigureAwait(false);
        }
        catch (Exception e) when (e is ServerNotAvailableException or EndOfStreamException or IOException)
        {
            // The process exited first: the stream has ended already.
        }
    }

    /// <summary>Folds the event stream into intervals: counters arrive in a batch per interval, pool events in between.</summary>
    private sealed class IntervalBuilder(Action<IReadOnlyList<CounterSecond>>? onInterval)
    {
        private readonly List<CounterSecond> _all = [];
        private readonly Dictionary<string, double> _batch = new(StringComparer.Ordinal);
        private int _rents, _allocations;
        private long _bodyHits, _bodyMisses, _bodyRefused;
        private double _batchSecond = -1;

        public IReadOnlyList<CounterSecond> All
        {
            get
            {
                Flush();
                return _all;
            }
        }

        public void Add(TraceEvent e)
        {
            if (e.ProviderName == ArrayPoolProvider)
            {
                if (e.EventName == "BufferRented")
                {
                    _rents++;
                }
                else if (e.EventName == "BufferAllocated")
                {
                    _allocations++;
                }

                return;
            }

            if (e.ProviderName == MetricsProvider)
            {
                AddMeasurement(e);
                return;
            }

            // An EventCounters event carries one struct, whose "Payload" field holds the counter's name and value.
            if (e.EventName != "EventCounters" || e.PayloadValue(0) is not IDictionary<string, object> wrapper
                || !wrapper.TryGetValue("Payload", out object? inner) || inner is not IDictionary<string, object> payload)
            {
                return;
            }

            double second = Math.Round(e.TimeStampRelativeMSec / 1000, 1);
            if (_batch.Count > 0 && Math.Abs(second - _batchSecond) >= 0.5)
            {
                Flush(); // a new interval's batch began
            }

            _batchSecond = second;
            string name = payload.TryGetValue("Name", out object? n) ? n as string ?? string.Empty : string.Empty;
            object? value = payload.TryGetValue("Increment", out object? increment) ? increment : payload.TryGetValue("Mean", out object? mean) ? mean : null;
            if (value is not null)
            {
                _batch[name] = Convert.ToDouble(value, System.Globalization.CultureInfo.InvariantCulture);
            }
        }

        private void Flush()
        {
            if (_batch.Count == 0)
            {
                return;
            }

            // Incrementing counters (alloc-rate, gen-2-gc-count, total-pause-time-by-gc) report the interval's increase.
            _all.Add(new CounterSecond(_batchSecond, Value("alloc-rate"), Value("gen-2-gc-count"), Value("loh-size"), Value("total-pause-time-by-gc"), _rents, _allocations)
            {
                BodyPoolHits = _bodyHits,
                BodyPoolMisses = _bodyMisses,
                BodyPoolRefusedReturns = _bodyRefused,
            });
            _batch.Clear();
            _rents = 0;
            _allocations = 0;
            (_bodyHits, _bodyMisses, _bodyRefused) = (0, 0, 0);
            onInterval?.Invoke(_all);
        }

        /// <summary>
        /// One value of the library's meter, as <c>MetricsEventSource</c> publishes it each interval: a counter's
        /// increase (<c>CounterRateValuePublished</c>, "rate") per set of tags, written "name=value,name=value".
        /// </summary>
        private void AddMeasurement(TraceEvent e)
        {
            string instrument = e.PayloadByName("instrumentName") as string ?? string.Empty;
            string tags = e.PayloadByName("tags") as string ?? string.Empty;
            if (e.EventName == "CounterRateValuePublished" && Number(e.PayloadByName("rate")) is double increase)
            {
                if (instrument == "pooledhttp.pool.rents")
                {
                    if (tags.Contains("pooledhttp.pool.hit=True", StringComparison.Ordinal))
                    {
                        _bodyHits += (long)increase;
                    }
                    else
                    {
                        _bodyMisses += (long)increase;
                    }
                }
                else if (instrument == "pooledhttp.pool.returns" && tags.Contains("pooledhttp.pool.kept=False", StringComparison.Ordinal))
                {
                    _bodyRefused += (long)increase;
                }
            }
        }

        /// <summary>A published value: invariant text, empty when the instrument had nothing to say in the interval.</summary>
        private static double? Number(object? text)
            => double.TryParse(text as string, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out double value) ? value : null;

        private double Value(string name) => _batch.TryGetValue(name, out double value) ? value : 0;
    }
}
