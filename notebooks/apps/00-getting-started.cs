// Chapter 00-getting-started as a .NET file-based app, written from notebooks/00-getting-started.ipynb by `dotnet run --project tools/Publish/GenerateApps`.
// To change the chapter itself, edit the notebook and run that command again (a test fails while the two differ).
// Your own lines are yours to edit here: a guess the text asks for, a value to try.
//
// Run it from anywhere in the clone:  dotnet run notebooks/apps/00-getting-started.cs          (the quick profile: add -- --quick)
// It builds in Release, as the runner builds the kit (notebooks/apps/Directory.Build.props says how), and runs the
// notebook's code cells in order; each starts at its Cell(n) line, n as the notebook and the runner count cells.
// Where the text below says "cell", read the code under a Cell(n) line; to run a cell again, run the app again.
// display(...) prints tables as text and writes each chart as a page of its own, whose path it prints.
// docs/apps.md: debugging it, and what it does not do.
#:project ../../helpers/PooledHttp.Workshop.Exercising/PooledHttp.Workshop.Exercising.csproj

// The kernel's imports, then the cells' own.
using System;
using System.Text;
using System.Collections;
using System.Collections.Generic;
using System.Threading.Tasks;
using System.Linq;
using System.Buffers;
using System.Diagnostics;
using System.Net.Http;
using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;
using PooledHttp.Workshop.Trying;
using System.Runtime.InteropServices;
using static PooledHttp.Workshop.Notebooks.ChapterApp; // display(...), HTML(...), Start, Cell

Start("00-getting-started", args);

// # 00 · Getting started: measure a download, chart what it allocates
//
// **What you will learn**
// - how every notebook in this series works: a local HTTP server in this notebook, BenchmarkDotNet
//   measuring a client in a separate process, a table and a chart of the bytes each strategy allocates;
// - what a one-line download allocates, set beside a pooled read;
// - how to check that your machine is ready for the rest of the series.
//
// Run the cells in order, or "Run All"; [the reference run](../../data/results/reference/MACHINE.md) lists how long each chapter took.

// ## 1 · Set up: two cells
//
// The notebooks do not define their own benchmark classes. A class compiled in a notebook cell is not
// optimized and not public in the way BenchmarkDotNet needs, so its validators refuse it
// ([`JitOptimizationsValidator.cs`](https://github.com/dotnet/BenchmarkDotNet/blob/v0.15.8/src/BenchmarkDotNet/Validators/JitOptimizationsValidator.cs),
// [`CompilationValidator.cs`](https://github.com/dotnet/BenchmarkDotNet/blob/v0.15.8/src/BenchmarkDotNet/Validators/CompilationValidator.cs)). The benchmarks
// live in `helpers/PooledHttp.Workshop.Benchmarks`, the local server in `helpers/PooledHttp.Workshop.Server`,
// the exercises in `helpers/PooledHttp.Workshop.Exercising` and the charts in `helpers/PooledHttp.Workshop`,
// all built in Release; the library they measure is `helpers/PooledHttp`.
//
// Every chapter opens with the same two cells:
//
// 1. `#load "workshop.csx"` builds the helpers into `artifacts/notebook-bin` (the script sits beside the
//    notebooks; open it to see what it does). On a second "Run All" it sees they are loaded and skips.
// 2. `#load "kit.csx"` references the built helpers (`#r`), and the `using` lines after it name the
//    namespaces the chapter needs. By itself the kernel brings in only the namespaces `System`, `System.Text`,
//    `System.Collections`, `System.Collections.Generic`, `System.Threading.Tasks` and `System.Linq` (and
//    `display`, through a `using static`): `HttpClient` needs `using System.Net.Http;`. A `using` in a loaded script would not reach your cells, which is why they are
//    here. `kit.csx` also prepares the charts, which are [Plotly.NET](https://plotly.net) charts
//    (`GenericChart`): it puts plotly.js, embedded in the helpers, on the page, and tells the kernel to draw
//    every `GenericChart` with it (`Formatter.Register`), which is what Plotly.NET.Interactive would do if
//    your package source served it.

// Cell 3, the notebook's setup (#load "workshop.csx" builds the kit into artifacts/notebook-bin): the #:project line at the top does it here.

// Cell 4, the notebook's setup (#load "kit.csx" references the kit): the #:project line at the top does it here.

// ## 2 · Check the environment
//
// The figures you will measure depend on the runtime. Chapter 02 measures .NET 8, .NET 9 and the
// runtime you run side by side, and chapter 08 .NET 8 beside yours, next to the .NET 8 figures the
// sources published. A runtime that is not installed is fetched once from your NuGet source into
// `artifacts/dotnet` (the README says how).

Cell(6);
static string Dotnet(string arguments)
{
    var start = new ProcessStartInfo("dotnet", arguments) { RedirectStandardOutput = true };
    using var process = Process.Start(start)!;
    string output = process.StandardOutput.ReadToEnd();
    process.WaitForExit();
    return output.Trim();
}

string runtimes = Dotnet("--list-runtimes");
Console.WriteLine($"This kernel runs on: {RuntimeInformation.FrameworkDescription}, {RuntimeInformation.OSDescription}, {Environment.ProcessorCount} cores");
Console.WriteLine($"SDKs:\n{Dotnet("--list-sdks")}");
Console.WriteLine($"Runtimes:\n{runtimes}");
foreach (int major in new[] { 8, 9 })
{
    Console.WriteLine(runtimes.Contains($"Microsoft.NETCore.App {major}.")
        ? $".NET {major} is installed: the chapters that compare runtimes use it."
        : $".NET {major} is not installed: the chapters that compare runtimes fetch it once from your NuGet source into artifacts/dotnet.");
}

// ## 3 · Start the local server
//
// `LocalServer.Start()` listens on 127.0.0.1 only, on a free port. It runs **in this notebook's
// process**; the client that is measured runs in another one. That matters: BenchmarkDotNet counts
// every byte allocated by every thread of the measured process
// ([`GcStats.cs`](https://github.com/dotnet/BenchmarkDotNet/blob/v0.15.8/src/BenchmarkDotNet/Engines/GcStats.cs) asks for `GC.GetTotalAllocatedBytes`), so a server in the same process
// would add its own garbage to the figures.

Cell(8);
var server = LocalServer.Start();
Console.WriteLine($"Serving on {server.BaseAddress}");

// A first request by hand: 1,000 bytes, chunked (no Content-Length), as the server of S0, the write-up chapter 02 retells, sent them.
using (var http = new HttpClient())
{
    byte[] body = await http.GetByteArrayAsync(server.BytesUrl(1000));
    Console.WriteLine($"GET /bytes?size=1000 returned {body.Length:N0} bytes; first mismatch with the expected pattern: {Payload.FirstMismatch(body)} (-1: none)");
}

// ## 4 · Two ways to download a body
//
// `IntroDownload` (in `helpers/PooledHttp.Workshop.Benchmarks/Benchmarks`) measures two downloads of a
// 64 KiB [chunked](../../docs/glossary.md#chunked) body. Each is a static method in the helpers, which the
// benchmark calls; the cells below hold the same code (a test fails if the two differ), so you can read
// it and run it once here. `TryOnce` runs a download with a client that watches the wire, and says
// whether the code read the whole body, byte for byte, and returned its length.
//
// **Before you run the cells below:** how many bytes per download do you expect each to allocate, for a
// 64 KiB body? Write your two numbers down; section 5 measures them.
//
// The first is the one-liner. It must hand you a new `byte[]` holding the body.

Cell(10);
// Measured as Downloads.GetByteArrayAsync
static async Task<int> GetByteArrayAsync(HttpClient client, Uri url)
{
    byte[] body = await client.GetByteArrayAsync(url);
    return body.Length;
}

Console.WriteLine(await TryOnce.DownloadAsync(GetByteArrayAsync, server.BytesUrl(64 * 1024)));

// The second is the helpers' pooled read, `GetPooledAsync`: the body lands in an array rented from a
// pool, and goes back when you dispose the `PooledBuffer` it returns. Chapter 04 builds it step by step.

Cell(12);
#nullable enable // the helpers are written with nullable annotations; a cell has them off by default
// Measured as Downloads.PooledReadAsync
static async Task<int> PooledReadAsync(HttpClient client, Uri url, ArrayPool<byte>? pool = null)
{
    using PooledBuffer body = await client.GetPooledAsync(url, pool: pool);
    return body.Length;
}

Console.WriteLine(await TryOnce.DownloadAsync((client, u) => PooledReadAsync(client, u), server.BytesUrl(64 * 1024)));
#nullable restore // the kernel's #nullable reaches the end of its cell only

// ## 5 · Measure them
//
// `Measure.Run` runs BenchmarkDotNet with its memory diagnoser and passes the server's address to the
// benchmark process in an environment variable. The first run builds the benchmark project
// before it measures anything. Set `POOLEDHTTP_PROFILE=quick` for a faster, rougher run: fewer sizes in chapter 04,
// noisier times, and bytes that can read higher where a strategy rents from `ArrayPool<byte>.Shared`
// or one download outlasts the quick profile's 100 ms iteration. The pages in `docs/chapters` show
// the default profile.
//
// **Units, once for the whole series.** Bytes are counted in binary multiples with their binary
// names: 1 KiB = 1,024 B, 1 MiB = 1,048,576 B (BenchmarkDotNet's own tables compute the same but
// label them KB and MB). KB and MB appear only for the sources' round decimal payloads: 70 KB is
// 70,000 B, a little under 69 KiB, and 2 MB is 2,000,000 B, a little under 2 MiB.

Cell(14);
MeasurementResult results = Measure.Run("00-getting-started", server, typeof(IntroDownload));
display(results);

// ## 6 · Chart it
//
// **The time columns.** `mean` is the time per download; `± error` is half of BenchmarkDotNet's 99.9%
// confidence interval around it. Times are secondary in this series: allocations are the headline,
// and times are compared only within one run. Where the error is larger than the mean, the table
// says "noisy" instead and its footnote says why.
//
// The chart's axis is logarithmic: the gap between the two bars is a ratio, not a difference.

Cell(16);
display(Charts.Allocations("00 · bytes allocated per 64 KiB download", results));

MeasuredRow naive = results.Get("GetByteArrayAsync");
MeasuredRow pooled = results.Get("PooledRead");
Console.WriteLine($"GetByteArrayAsync allocated {ByteUnits.Format(naive.AllocatedBytes)} per download, the pooled read {ByteUnits.Format(pooled.AllocatedBytes)}: "
    + $"the one-liner allocated {(double)naive.AllocatedBytes / pooled.AllocatedBytes:0.#} times as much as the pooled read.");

// ## 7 · Clean up
//
// Stopping the server frees its port at once, so "Run All" works again straight away.

Cell(18);
await server.DisposeAsync();
Console.WriteLine("Server stopped.");

// ## Recap
//
// - Every chapter follows this shape: a server here, the client measured in its own process,
//   a table and a chart built from that run.
// - The convenient `GetByteArrayAsync` allocates at least the whole body on every call; the pooled
//   read allocated a small part of that here. Chapter 04 measures it as the body grows.
// - Where those bytes come from, and how far a naive download is from either, is the story of the
//   series.
//
// **Next:** [01 · Why allocations hurt: generations, the LOH and ArrayPool](../01-why-allocations-hurt.ipynb)
