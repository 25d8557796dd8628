using System.Globalization;
using System.Text;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Notebooks;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Publishing;

/// <summary>
/// The headline figures of the results page (<c>docs/results.md</c>, read after the chapters), computed from the
/// committed reference run (<c>data/results/reference/*.csv</c>) and the sources' published figures, so that no
/// figure there is typed by hand. <c>dotnet run --project tools/Publish/ResultsPage</c> rewrites the table between
/// <see cref="Start"/> and <see cref="End"/>; a test fails when the page and the CSVs disagree.
/// </summary>
public static class ReferenceFigures
{
    /// <summary>The line before the generated table.</summary>
    public const string Start = "<!-- reference figures: generated from data/results/reference by `dotnet run --project tools/Publish/ResultsPage`; do not edit by hand -->";

    /// <summary>The line after it.</summary>
    public const string End = "<!-- end of reference figures -->";

    private const int OneMiB = 1024 * 1024;

    /// <summary>The results page, relative to the repository's root.</summary>
    public const string Page = "docs/results.md";

    /// <summary>The reference run's folder in this repository.</summary>
    public static string ReferenceFolder => Path.Combine(WorkshopPaths.Root, "data", "results", "reference");

    /// <summary>The table, one row per chapter, from the CSVs in <paramref name="folder"/>.</summary>
    public static string Table(string folder)
    {
        var rows = new List<(string Chapter, string What, string Figures)>();
        MeasurementResult Csv(string notebook) => new(ResultsCsv.Read(Path.Combine(folder, notebook + ".csv")));
        static string B(MeasuredRow row) => ByteUnits.Format(row.AllocatedBytes);
        static string Gen2(MeasuredRow row) => row.Gen2.ToString("#,0", CultureInfo.InvariantCulture);

        MeasurementResult intro = Csv("00-getting-started");
        rows.Add(("00", "64 KiB chunked download", $"`GetByteArrayAsync` {B(intro.Get("GetByteArrayAsync", 65536))}, pooled read {B(intro.Get("PooledRead", 65536))}"));

        MeasurementResult arrays = Csv("01-why-allocations-hurt");
        MeasuredRow allocate = arrays.Get("Allocate", 10_000_000);
        long s1Shared = PublishedFigure.Of("S1", "arraypool").Single(f => f.Method == "RentAndReturn_Shared" && f.PayloadBytes == 10_000_000).AllocatedBytes;
        rows.Add(("01", "10 MB array", $"`new byte[]` {B(allocate)} and {Gen2(allocate)} Gen2 per 1,000; `Shared.Rent` {B(arrays.Get("RentAndReturn_Shared", 10_000_000))} (S1, 2017: {ByteUnits.Format(s1Shared)})"));

        MeasurementResult naive = Csv("02-the-5mb-download");
        string ByRuntime(string strategy) => string.Join(", ", naive.Runtimes.Select(runtime => naive.Single(r => r.Strategy == strategy && r.PayloadBytes == OneMiB && r.Variant == "Chunked" && r.Runtime == runtime)).Select(r => $"{B(r)} on {r.Runtime}"));
        long s0Naive = PublishedFigure.Of("S0", "download").Single(f => f.Method == "Client_Send_GetByteArrayAsync").AllocatedBytes;
        rows.Add(("02", "1 MiB chunked, `SendAsync` + `ReadAsByteArrayAsync`", $"{ByRuntime("Client_Send_GetByteArrayAsync")} (S0, .NET 8: {ByteUnits.Format(s0Naive)})"));

        MeasurementResult completion = Csv("03-httpcompletionoption");
        string Fewer(string contentRead, string headersRead) => Percent(1 - ((double)completion.Get(headersRead, variant: "Books=250").AllocatedBytes / completion.Get(contentRead, variant: "Books=250").AllocatedBytes));
        rows.Add(("03", "250 books, `ResponseHeadersRead` against `ResponseContentRead`", $"stream only: {Fewer("ContentRead_Stream", "HeadersRead_Stream")} fewer bytes (S4: {Claim("books-250-stream")}); deserializing: {Fewer("ContentRead_Deserialize", "HeadersRead_Deserialize")} (S4: {Claim("books-250-deserialize")})"));

        MeasurementResult sweep = Csv("04-pooled-buffers").Of("PooledSweep");
        rows.Add(("04", "pooled read against the naive read, chunked", $"1 MiB: {B(sweep.Get("PooledRead", OneMiB))} against {B(sweep.Get("Client_Send_GetByteArrayAsync", OneMiB))}; 64 MiB: {B(sweep.Get("PooledRead", 64 * OneMiB))} against {B(sweep.Get("Client_Send_GetByteArrayAsync", 64 * OneMiB))}"));

        MeasurementResult bodies = Csv("05-request-bodies").Of("RequestBodies");
        rows.Add(("05", "POST of 2 MB of JSON", $"Newtonsoft to a string {B(bodies.Get("Baseline", 2_000_000))}, pooled content {B(bodies.Get("PooledJsonContent", 2_000_000))}"));

        MeasurementResult h2 = Csv("06-http2");
        rows.Add(("06", "100,000-byte POST, one reused request", $"HTTP/1.1 {B(h2.Get("ReusedRequest", variant: "Http11"))}, HTTP/2 {B(h2.Get("ReusedRequest", variant: "Http2"))}"));

        MeasurementResult load = Csv("07-under-load").Of("UnderLoad");
        MeasuredRow naive64 = load.Get("Naive", OneMiB), pooled64 = load.Get("Pooled", OneMiB);
        rows.Add(("07", "a batch of 64 paced chunked downloads really in flight together", $"1 MiB: naive {B(naive64)} per batch, pooled {B(pooled64)}; 8 MiB, past the default pool's budget: pooled {B(load.Get("Pooled", 8 * OneMiB))}, on a pool sized for it {B(load.Get("PooledSized", 8 * OneMiB))}"));

        MeasurementResult journey = Csv("08-the-journey");
        MeasurementResult responses = journey.Of("PooledDownload");
        MeasuredRow oldest = responses.Where(r => r.Strategy == "Client_Send_GetByteArrayAsync").MinBy(r => r.RuntimeMajor)!;
        MeasuredRow newest = responses.Where(r => r.Strategy == "Client_Send_GetByteArrayAsync").MaxBy(r => r.RuntimeMajor)!;
        rows.Add(("08", "1 MiB response, naive to pooled", $"naive {B(oldest)} on {oldest.Runtime}, {B(newest)} on {newest.Runtime}; pooled read {B(responses.Single(r => r.Strategy == "PooledRead" && r.Runtime == newest.Runtime))}"));

        MeasurementResult service = Csv("09-your-service");
        MeasurementResult wires = service.Of("WireDownloads");
        string Wire(string label, string variant) => $"{label} {B(wires.Get("PooledRead", 16 * OneMiB, variant))}";
        rows.Add(("09", "your service: typed client at 1 MiB; pooled read at 16 MiB by wire", $"typed client {B(service.Get("TypedClient_PooledRead", OneMiB))} (plain client {B(service.Get("Plain_PooledRead", OneMiB))}); {Wire("gzip", "Gzip")}, {Wire("HTTPS", "Https")}, {Wire("HTTP/2 (one run: it varies widely between runs, docs/measurements.md)", "Http2")}, {Wire("HTTP/2 with its window fixed at its initial size", "Http2FixedWindow")} (`GetByteArrayAsync`: {B(wires.Get("GetByteArrayAsync", 16 * OneMiB, "Gzip"))} for gzip)"));

        var table = new StringBuilder();
        table.AppendLine("| # | what | reference run |");
        table.AppendLine("|---|---|---|");
        foreach ((string chapter, string what, string figures) in rows)
        {
            table.AppendLine(CultureInfo.InvariantCulture, $"| {chapter} | {what} | {figures} |");
        }

        return table.ToString().TrimEnd();
    }

    /// <summary><paramref name="readme"/> with the text between the markers replaced by <see cref="Table"/> of <paramref name="folder"/>.</summary>
    /// <exception cref="InvalidOperationException">The README lacks the markers.</exception>
    public static string Update(string readme, string folder)
    {
        ArgumentNullException.ThrowIfNull(readme);
        int start = readme.IndexOf(Start, StringComparison.Ordinal);
        int end = readme.IndexOf(End, StringComparison.Ordinal);
        if (start < 0 || end < start)
        {
            throw new InvalidOperationException($"The README has no generated figures: put the lines\n{Start}\n{End}\nwhere the table goes.");
        }

        return readme[..(start + Start.Length)] + "\n" + Table(folder) + "\n" + readme[end..];
    }

    /// <summary>The text between the markers of <paramref name="readme"/>, trimmed.</summary>
    public static string Current(string readme)
    {
        ArgumentNullException.ThrowIfNull(readme);
        int start = readme.IndexOf(Start, StringComparison.Ordinal);
        int end = readme.IndexOf(End, StringComparison.Ordinal);
        return start < 0 || end < start ? string.Empty : readme[(start + Start.Length)..end].Trim();
    }

    private static string Percent(double fraction) => fraction.ToString("0%", CultureInfo.InvariantCulture);

    private static string Claim(string scenario)
    {
        string line = File.ReadLines(WorkshopPaths.PublishedClaimsCsv).Single(l => l.Split(',')[1] == scenario);
        return line.Split(',')[^1] + "%";
    }
}
