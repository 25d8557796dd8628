// dotnet run -c Release --project tools/RunBenchmark -- --filter '*PooledDownload*' [--job short] [--runtimes net8.0 net10.0] [--list flat]
//
// The series' benchmarks with BenchmarkDotNet's own command line, as its samples run: every class in
// helpers/PooledHttp.Workshop.Benchmarks is there (--list flat shows them). The chapters' servers run in
// this process; BenchmarkDotNet's child processes, which run the client, inherit their addresses in the
// run context (RunContext: the local server; chapter 06's h2c and HTTP/1.1 for Http2Post; chapter 09's h2c and
// HTTPS addresses and the certificate its client pins), so the server's own allocations are never counted. The memory diagnoser is on, as in every chapter.
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Running;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Server;

await using LocalServer server = LocalServer.Start();
await using Http2Server h2 = await Http2Server.StartAsync();
using System.Security.Cryptography.X509Certificates.X509Certificate2 certificate = LoopbackCertificate.Create();
await using WireServer wire = await WireServer.StartAsync(certificate);
RunContext.Current.With(server.Context).With(h2.Context).With(wire.Context).SetForThisProcess(); // inherited by every process BenchmarkDotNet starts

Console.WriteLine($"Local server on {server.BaseAddress}, HTTP/2 (h2c) on {h2.Http2Address}, chapter 09's h2c on {wire.Http2Address} and HTTPS on {wire.HttpsAddress}: the benchmarks' clients run in BenchmarkDotNet's processes.");
IConfig config = DefaultConfig.Instance.AddDiagnoser(MemoryDiagnoser.Default);
IEnumerable<BenchmarkDotNet.Reports.Summary> summaries = BenchmarkSwitcher.FromAssembly(typeof(DownloadBenchmark).Assembly).Run(args, config);
bool anyFailed = summaries.Any(s => s.HasCriticalValidationErrors || s.Reports.Any(r => !r.Success));
bool listOnly = args.Contains("--list") || args.Contains("--help") || args.Contains("--version");
if (!listOnly && !summaries.Any(s => s.Reports.Length > 0))
{
    Console.Error.WriteLine("No benchmark ran: check --filter against --list flat.");
    return 1;
}

return anyFailed ? 1 : 0;
