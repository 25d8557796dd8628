using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using PooledHttp.Workshop.Building;
using PooledHttp.Workshop.Notebooks;
using PooledHttp.Workshop.Server;
using PooledHttp.Workshop.Watching;

namespace PooledHttp.Workshop.Load;

/// <summary>
/// Builds the load probe (<c>helpers/PooledHttp.Workshop.LoadProbe</c>) and runs it, one process per strategy and concurrency, against a
/// server in this process: GC pause time and peak working set belong to a process, so each run
/// needs one of its own.
/// </summary>
public sealed class LoadProbe
{
    /// <summary>Long enough for 512 paced downloads of 16 MiB one at a time; a probe that takes longer is stuck.</summary>
    private static readonly TimeSpan ProbeTimeout = TimeSpan.FromMinutes(10);

    private readonly string _dll;

    private LoadProbe(string dll) => _dll = dll;

    /// <summary>Builds the probe in Release into <c>artifacts/loadprobe</c> (a few seconds once built).</summary>
    /// <exception cref="InvalidOperationException">The build failed; the message holds its output.</exception>
    public static async Task<LoadProbe> BuildAsync()
    {
        string project = Path.Combine(WorkshopPaths.Root, "helpers", "PooledHttp.Workshop.LoadProbe", "PooledHttp.Workshop.LoadProbe.csproj");
        (string? assembly, string? failure) = await BuildOutput.BuildAsync("the load probe (helpers/PooledHttp.Workshop.LoadProbe)", project, Path.Combine(WorkshopPaths.Root, "artifacts", "loadprobe")).ConfigureAwait(false);
        return assembly is not null ? new LoadProbe(assembly) : throw new InvalidOperationException($"Building the load probe failed:{Environment.NewLine}{failure}");
    }

    /// <summary>
    /// Runs <paramref name="downloads"/> downloads of <paramref name="size"/> bytes from <paramref name="server"/>,
    /// <paramref name="concurrency"/> at a time, in a fresh process, and records how many bodies the server was
    /// really writing at once (<see cref="LoadResult.PeakOverlap"/>).
    /// </summary>
    /// <param name="strategy">One of <see cref="LoadStrategies.Names"/>.</param>
    /// <param name="server">The server, in this process.</param>
    /// <param name="size">The body size.</param>
    /// <param name="contentLength">Bodies with a Content-Length; chunked otherwise.</param>
    /// <param name="concurrency">Downloads in flight at once.</param>
    /// <param name="downloads">Downloads measured after the warm-up.</param>
    /// <param name="pace">How the server spreads each body over time; one write when <see langword="null"/>,
    /// which on loopback means downloads started together finish one after another.</param>
    /// <param name="warmUp">Downloads before the measured ones; eight rounds of the load (at least 64) when <see langword="null"/>.</param>
    /// <exception cref="InvalidOperationException">The probe failed; the message holds its error output.</exception>
    public Task<LoadResult> RunAsync(string strategy, LocalServer server, int size, bool contentLength, int concurrency, int downloads, Pace? pace = null, int? warmUp = null)
        => RunAsync(strategy, server, size, contentLength, concurrency, downloads, pace, warmUp, started: null);

    /// <summary>
    /// <see cref="RunAsync(string, LocalServer, int, bool, int, int, Pace?, int?)"/>, watched from outside while it runs, as
    /// <c>dotnet-counters</c> watches a server: the runtime's counters and the ArrayPool events, one interval a
    /// second, handed to <paramref name="onInterval"/> as they come (<see cref="ProcessWatch"/>).
    /// </summary>
    /// <returns>The probe's own result, and every interval watched.</returns>
    public async Task<(LoadResult Result, IReadOnlyList<CounterSecond> Intervals)> RunWatchedAsync(string strategy, LocalServer server, int size, bool contentLength, int concurrency, int downloads, Pace? pace, Action<IReadOnlyList<CounterSecond>>? onInterval)
    {
        Task<IReadOnlyList<CounterSecond>>? watch = null;
        using var stop = new CancellationTokenSource();
        LoadResult result;
        try
        {
            result = await RunAsync(strategy, server, size, contentLength, concurrency, downloads, pace, warmUp: null, started: pid => watch = ProcessWatch.WatchAsync(pid, onInterval, stop.Token)).ConfigureAwait(false);
        }
        finally
        {
            // The stream ends when the process exits; the timer only guards against one that never does.
            stop.CancelAfter(WatchGrace);
        }

        IReadOnlyList<CounterSecond> intervals = watch is null ? [] : await watch.ConfigureAwait(false);
        return (result, intervals);
    }

    /// <summary>How long the watch may outlive the probe: the session's last batch is on its way when the process exits.</summary>
    private static readonly TimeSpan WatchGrace = TimeSpan.FromSeconds(5);

    private async Task<LoadResult> RunAsync(string strategy, LocalServer server, int size, bool contentLength, int concurrency, int downloads, Pace? pace, int? warmUp, Action<int>? started)
    {
        ArgumentNullException.ThrowIfNull(server);
        Uri url = pace is { } paced ? server.PacedBytesUrl(size, contentLength, paced) : server.BytesUrl(size, contentLength);
        string[] arguments = warmUp is { } rounds
            ? [_dll, strategy, url.ToString(), Invariant(size), Invariant(concurrency), Invariant(downloads), Invariant(rounds)]
            : [_dll, strategy, url.ToString(), Invariant(size), Invariant(concurrency), Invariant(downloads)];
        server.BodiesInFlight.ResetPeak();
        (int exit, string stdout, string stderr, _) = await ChildProcess.RunAsync("dotnet", arguments, ProbeTimeout, started: started).ConfigureAwait(false);
        int overlap = server.BodiesInFlight.ResetPeak();
        if (exit != 0)
        {
            throw new InvalidOperationException($"The load probe ({strategy}, {concurrency} in flight) failed with exit code {exit}:{Environment.NewLine}{stderr}{stdout}");
        }

        LoadResult result = JsonSerializer.Deserialize<LoadResult>(stdout.Trim())
               ?? throw new InvalidOperationException($"The load probe printed no result: {stdout}");
        return result with { BodySize = size, ContentLength = contentLength, PeakOverlap = overlap };
    }

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>An HTML table of <paramref name="results"/>.</summary>
    public static string ToHtml(IEnumerable<LoadResult> results)
    {
        var html = new StringBuilder("<table><thead><tr><th>strategy</th><th>body</th><th>in flight</th><th>peak overlap</th><th>downloads</th><th>allocated / download</th><th>Gen0</th><th>Gen1</th><th>Gen2</th><th>GC pause</th><th>throughput</th><th>peak working set</th><th>heap after</th></tr></thead><tbody>");
        foreach (LoadResult r in results)
        {
            string[] cells =
            [
                r.Strategy, ByteUnits.Format(r.BodySize) + (r.ContentLength ? ", length" : ", chunked"),
                Invariant(r.Concurrency), Invariant(r.PeakOverlap), Invariant(r.Downloads),
                ByteUnits.Format(r.AllocatedPerDownload), Invariant(r.Gen0), Invariant(r.Gen1), Invariant(r.Gen2),
                string.Create(CultureInfo.InvariantCulture, $"{r.GcPauseMs:0.#} ms"),
                string.Create(CultureInfo.InvariantCulture, $"{r.ThroughputMiBps:0} MiB/s"), ByteUnits.Format(r.PeakWorkingSetBytes), ByteUnits.Format(r.HeapAfterBytes),
            ];
            html.Append("<tr>").AppendJoin(string.Empty, cells.Select(c => "<td>" + WebUtility.HtmlEncode(c) + "</td>")).Append("</tr>");
        }

        return html.Append("</tbody></table>").ToString();
    }
}
