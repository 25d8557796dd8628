using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using PooledHttp.Measuring;
using PooledHttp.Notebooks;

namespace PooledHttp.Load;

/// <summary>
/// Builds <c>tools/LoadProbe</c> and runs it, one process per strategy and concurrency, against a
/// server in this process: GC pause time and peak working set belong to a process, so each run
/// needs one of its own.
/// </summary>
public sealed class LoadProbe
{
    private readonly string _dll;

    private LoadProbe(string dll) => _dll = dll;

    /// <summary>Builds the probe in Release into <c>artifacts/loadprobe</c> (a few seconds once built).</summary>
    /// <exception cref="InvalidOperationException">The build failed; the message holds its output.</exception>
    public static async Task<LoadProbe> BuildAsync()
    {
        string project = Path.Combine(WorkshopPaths.Root, "tools", "LoadProbe", "LoadProbe.csproj");
        string output = Path.Combine(WorkshopPaths.Root, "artifacts", "loadprobe");
        string assembly = Path.Combine(output, "LoadProbe.dll");
        if (BuildOutput.IsCurrent(Path.GetDirectoryName(project)!, assembly))
        {
            return new LoadProbe(assembly); // a build that would change nothing costs MSBuild several seconds
        }

        (int exit, string stdout, string stderr) = await DotnetCli.RunAsync($"build \"{project}\" -c Release -o \"{output}\" --nologo -v quiet").ConfigureAwait(false);
        if (exit != 0)
        {
            throw new InvalidOperationException($"Building the load probe failed:{Environment.NewLine}{stdout}{stderr}");
        }

        return new LoadProbe(assembly);
    }

    /// <summary>Runs <paramref name="downloads"/> downloads of <paramref name="url"/>, <paramref name="concurrency"/> at a time, in a fresh process.</summary>
    /// <exception cref="InvalidOperationException">The probe failed; the message holds its error output.</exception>
    public async Task<LoadResult> RunAsync(string strategy, Uri url, int concurrency, int downloads)
    {
        ArgumentNullException.ThrowIfNull(url);
        string arguments = string.Create(CultureInfo.InvariantCulture, $"\"{_dll}\" {strategy} {url} {concurrency} {downloads}");
        (int exit, string stdout, string stderr) = await DotnetCli.RunAsync(arguments).ConfigureAwait(false);
        if (exit != 0)
        {
            throw new InvalidOperationException($"The load probe ({strategy}, {concurrency} in flight) failed with exit code {exit}:{Environment.NewLine}{stderr}{stdout}");
        }

        return JsonSerializer.Deserialize<LoadResult>(stdout.Trim())
               ?? throw new InvalidOperationException($"The load probe printed no result: {stdout}");
    }

    /// <summary>An HTML table of <paramref name="results"/>.</summary>
    public static string ToHtml(IEnumerable<LoadResult> results)
    {
        var html = new StringBuilder("<table><thead><tr><th>strategy</th><th>in flight</th><th>downloads</th><th>allocated / download</th><th>Gen0</th><th>Gen1</th><th>Gen2</th><th>GC pause</th><th>pause share</th><th>throughput</th><th>peak working set</th></tr></thead><tbody>");
        foreach (LoadResult r in results)
        {
            string[] cells =
            [
                r.Strategy, r.Concurrency.ToString(CultureInfo.InvariantCulture), r.Downloads.ToString(CultureInfo.InvariantCulture),
                ByteUnits.Format((double)r.AllocatedBytes / r.Downloads), r.Gen0.ToString(CultureInfo.InvariantCulture),
                r.Gen1.ToString(CultureInfo.InvariantCulture), r.Gen2.ToString(CultureInfo.InvariantCulture),
                string.Create(CultureInfo.InvariantCulture, $"{r.GcPauseMs:0.#} ms"), string.Create(CultureInfo.InvariantCulture, $"{r.PausePercent:0.#}%"),
                string.Create(CultureInfo.InvariantCulture, $"{r.ThroughputMiBps:0} MiB/s"), ByteUnits.Format(r.PeakWorkingSetBytes),
            ];
            html.Append("<tr>").AppendJoin(string.Empty, cells.Select(c => "<td>" + WebUtility.HtmlEncode(c) + "</td>")).Append("</tr>");
        }

        return html.Append("</tbody></table>").ToString();
    }

}
