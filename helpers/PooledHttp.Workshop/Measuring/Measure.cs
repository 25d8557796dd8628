using System.Text;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Mathematics;
using BenchmarkDotNet.Parameters;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Validators;
using Perfolizer.Mathematics.Common;
using PooledHttp.Workshop.Building;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Notebooks;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Measuring;

/// <summary>
/// Measures benchmark classes from a notebook cell: the server stays in the notebook's process and
/// BenchmarkDotNet runs the client in a child process of its own, so the server's garbage is never
/// counted.
/// </summary>
public static class Measure
{
    /// <summary>The benchmark parameter that holds the payload size in bytes.</summary>
    public const string SizeParameter = "Size";

    /// <summary>
    /// Runs every benchmark of <paramref name="benchmarks"/> in one BenchmarkDotNet run (one build),
    /// against <paramref name="server"/>, appends the rows to <c>results/&lt;notebook&gt;.csv</c> in the
    /// output folder, and returns them.
    /// </summary>
    /// <param name="notebook">The measuring notebook's name, for the CSV and the rows.</param>
    /// <param name="server">The server the benchmarks download from.</param>
    /// <param name="benchmarks">Benchmark classes (public, not sealed, built in Release): the chapters' from <c>PooledHttp.Workshop.Benchmarks</c>, an exercise's nested <c>Benchmark</c> from <c>PooledHttp.Workshop.Exercising</c>.</param>
    /// <exception cref="BenchmarkFailedException">Validation failed, a benchmark failed, or the run produced no reports.</exception>
    public static MeasurementResult Run(string notebook, LocalServer server, params Type[] benchmarks)
        => Run(notebook, server, MeasurementProfile.CurrentJob, benchmarks);

    /// <summary>As <see cref="Run(string, LocalServer, Type[])"/>, with an explicit job.</summary>
    public static MeasurementResult Run(string notebook, LocalServer server, Job job, params Type[] benchmarks)
        => Run(notebook, server, [job], benchmarks);

    /// <summary>As <see cref="Run(string, LocalServer, Type[])"/>, once per job: several runtimes in one run, for example.</summary>
    public static MeasurementResult Run(string notebook, LocalServer server, IReadOnlyList<Job> jobs, params Type[] benchmarks)
    {
        ArgumentNullException.ThrowIfNull(server);
        return Run(notebook, server.Context, jobs, benchmarks);
    }

    /// <summary>
    /// As <see cref="Run(string, LocalServer, Type[])"/>, against the servers <paramref name="context"/> names: another
    /// server's (chapter 06's <c>h2.Context</c>) or several together (<c>server.Context.With(wire.Context)</c>).
    /// </summary>
    public static MeasurementResult Run(string notebook, RunContext context, params Type[] benchmarks)
        => Run(notebook, context, [MeasurementProfile.CurrentJob], benchmarks);

    /// <summary>
    /// As <see cref="Run(string, RunContext, Type[])"/>, for one benchmark class whose
    /// parameters are given here instead of by attributes: each combination of <paramref name="parameters"/>' values
    /// (property name to values) is one case. The exercises measure what the learner's call asked for this way.
    /// </summary>
    public static MeasurementResult Run(string notebook, RunContext context, Type benchmark, IReadOnlyDictionary<string, object[]> parameters)
    {
        ArgumentNullException.ThrowIfNull(benchmark);
        ArgumentNullException.ThrowIfNull(parameters);
        return Run(notebook, context, [MeasurementProfile.CurrentJob], [benchmark], config => [Plan(benchmark, config, parameters)]);
    }

    /// <summary>
    /// The cases of <paramref name="benchmark"/> with <paramref name="parameters"/> in place of its own: one per
    /// method, job and combination. A class with parameter attributes plans one case per attribute value first;
    /// those collapse to one per method and job before the given values apply.
    /// </summary>
    internal static BenchmarkRunInfo Plan(Type benchmark, IConfig config, IReadOnlyDictionary<string, object[]> parameters)
    {
        BenchmarkRunInfo planned = BenchmarkConverter.TypeToBenchmarks(benchmark, config);
        BenchmarkCase[] cases =
        [
            .. planned.BenchmarksCases
                .DistinctBy(c => (c.Descriptor, c.Job))
                .SelectMany(c => Combinations(parameters).Select(p => BenchmarkCase.Create(c.Descriptor, c.Job, p, c.Config))),
        ];
        return new BenchmarkRunInfo(cases, benchmark, planned.Config);
    }

    private static MeasurementResult Run(string notebook, RunContext context, IReadOnlyList<Job> jobs, Type[] benchmarks)
        => Run(notebook, context, jobs, benchmarks, config => [.. benchmarks.Select(type => BenchmarkConverter.TypeToBenchmarks(type, config))]);

    /// <summary>Every combination of the values, one <see cref="ParameterInstances"/> each, in name order as BenchmarkDotNet lists attribute parameters.</summary>
    private static IEnumerable<ParameterInstances> Combinations(IReadOnlyDictionary<string, object[]> parameters)
    {
        IEnumerable<List<ParameterInstance>> combinations = [[]];
        foreach ((string name, object[] values) in parameters.OrderBy(p => p.Key, StringComparer.Ordinal))
        {
            if (values.Length == 0)
            {
                throw new ArgumentException($"Parameter {name} has no values.", nameof(parameters));
            }

            var definition = new ParameterDefinition(name, isStatic: false, values, isArgument: false, values[0].GetType(), priorityInCategory: 0);
            combinations = [.. combinations.SelectMany(so => values.Select(value => new List<ParameterInstance>(so) { new(definition, value, SummaryStyle.Default) }))];
        }

        return combinations.Select(items => new ParameterInstances(items));
    }

    private static MeasurementResult Run(string notebook, RunContext context, IReadOnlyList<Job> jobs, Type[] benchmarks, Func<IConfig, BenchmarkRunInfo[]> plan)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(notebook);
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(jobs);
        if (jobs.Count == 0)
        {
            throw new ArgumentException("Name at least one job.", nameof(jobs));
        }

        if (benchmarks.Length == 0)
        {
            throw new ArgumentException("Name at least one benchmark class.", nameof(benchmarks));
        }

        string profile = MeasurementProfile.Current;
        var progress = new ProgressLogger();
        IConfig config = ManualConfig.CreateEmpty()
            .AddJob(jobs.Select(job => ForThisRun(job, context)).ToArray())
            .AddDiagnoser(MemoryDiagnoser.Default)
            .AddLogger(progress)
            .AddColumnProvider(DefaultColumnProviders.Instance)
            // BenchmarkDotNet's own table, beside the rows this class writes: what its samples publish with their code.
            .AddExporter(MarkdownExporter.GitHub)
            .WithArtifactsPath(Path.Combine(WorkshopPaths.Output, "benchmarkdotnet"))
            // A build waits for the workshop's build lock within its timeout: BenchmarkDotNet's two minutes ran out
            // while another notebook's or an exercise's build held it. The lock's own timeout is the one to wait.
            .WithBuildTimeout(BuildLock.Timeout)
            .WithOptions(ConfigOptions.JoinSummary | ConfigOptions.DisableLogFile);

        BenchmarkRunInfo[] planned = plan(config);
        int cases = planned.Sum(info => info.BenchmarksCases.Length);
        string what = string.Join(", ", benchmarks.Select(NameOf));
        Summary summary;
        // Named jobs (the timing job, a runtime's) are said, so a label never calls a timing run the default profile.
        string[] otherJobs = [.. jobs.Select(job => job.Id).Where(id => id != profile).Distinct()];
        string how = otherJobs.Length == 0 ? $"{profile} profile" : $"{profile} profile, {string.Join(", ", otherJobs)} {(otherJobs.Length == 1 ? "job" : "jobs")}";
        using (var reporter = new ProgressReporter($"Measuring {what}: {cases} case(s), {how}", cases))
        {
            progress.CaseStarted = reporter.CaseStarted;
            summary = BenchmarkRunner.Run(planned).Single();
            reporter.Finish(summary.Reports.Count(r => r.Success));
        }

        ThrowIfFailed(summary, progress);

        var rows = summary.Reports.Select(report => ToRow(notebook, profile, report)).ToList();
        ResultsCsv.Append(Path.Combine(WorkshopPaths.ResultsFolder, notebook + ".csv"), rows);
        RunSummary.Add(notebook, rows);
        return new MeasurementResult(rows);
    }

    /// <summary>
    /// <paramref name="job"/> with the run context in its environment, built by
    /// <see cref="WorkshopToolchain"/> unless it names a toolchain of its own (an older runtime's).
    /// </summary>
    private static Job ForThisRun(Job job, RunContext context)
    {
        // This process's own context travels on (the runner's profile, a test's project), with the servers' on top.
        Job withEnvironment = job.WithEnvironmentVariable(RunContext.Variable, RunContext.Current.With(context).ToJson());
        return job.HasValue(InfrastructureMode.ToolchainCharacteristic) ? withEnvironment : withEnvironment.WithToolchain(WorkshopToolchain.ForThisRuntime);
    }

    private static void ThrowIfFailed(Summary summary, ProgressLogger progress)
    {
        var problems = new StringBuilder();
        foreach (ValidationError error in summary.ValidationErrors.Where(e => e.IsCritical))
        {
            problems.AppendLine("validation: " + error.Message);
        }

        foreach (BenchmarkReport report in summary.Reports.Where(r => !r.Success || r.ResultStatistics is null))
        {
            problems.AppendLine($"{report.BenchmarkCase.DisplayInfo}: no result. {report.BuildResult?.ErrorMessage} {report.GenerateResult?.GenerateException?.Message}".TrimEnd());
        }

        if (summary.Reports.Length == 0)
        {
            problems.AppendLine("the run produced no reports.");
        }

        if (problems.Length > 0)
        {
            throw new BenchmarkFailedException($"BenchmarkDotNet did not measure everything it was asked to:{Environment.NewLine}{problems}Last lines of its log:{Environment.NewLine}{progress.Tail}");
        }
    }

    /// <summary>
    /// A benchmark class's name in rows and progress lines: its own, or, for an exercise's nested <c>Benchmark</c>,
    /// the exercise's ("Exercise04").
    /// </summary>
    private static string NameOf(Type benchmark) => benchmark.DeclaringType?.Name ?? benchmark.Name;

    private static MeasuredRow ToRow(string notebook, string profile, BenchmarkReport report)
    {
        BenchmarkCase benchmark = report.BenchmarkCase;
        Statistics stats = report.ResultStatistics!;
        GcStats gc = report.GcStats;
        double perThousand(int collections) => gc.TotalOperations == 0 ? 0 : collections * 1000.0 / gc.TotalOperations;
        int? size = benchmark.Parameters.Items.FirstOrDefault(p => p.Name == SizeParameter)?.Value is int s ? s : null;
        // Enum values name themselves ("ContentLength"); other values need their parameter's name ("Books=250").
        string variant = string.Join(", ", benchmark.Parameters.Items.Where(p => p.Name != SizeParameter)
            .Select(p => p.Value is Enum ? p.Value.ToString() : $"{p.Name}={p.Value}"));

        return new MeasuredRow(
            Notebook: notebook,
            Benchmark: NameOf(benchmark.Descriptor.Type),
            Strategy: benchmark.Descriptor.WorkloadMethod.Name,
            PayloadBytes: size,
            Variant: variant,
            Runtime: RuntimeName(report),
            AllocatedBytes: AllocatedPerOperation(benchmark, gc),
            Gen0: perThousand(gc.Gen0Collections),
            Gen1: perThousand(gc.Gen1Collections),
            Gen2: perThousand(gc.Gen2Collections),
            MeanNs: stats.Mean,
            ErrorNs: stats.GetConfidenceInterval(ConfidenceLevel.L999).Margin,
            Profile: profile);
    }

    /// <summary>BenchmarkDotNet's bytes per operation; a diagnoser that measured nothing is a failure, not 0.</summary>
    private static long AllocatedPerOperation(BenchmarkCase benchmark, GcStats gc)
        => gc.GetBytesAllocatedPerOperation(benchmark)
           ?? throw new BenchmarkFailedException($"{benchmark.DisplayInfo}: the memory diagnoser reported nothing.");

    /// <summary>".NET 10.0.12" from BenchmarkDotNet's ".NET 10.0.12 (10.0.1226.42308), X64 RyuJIT AVX2": the runtime that ran the benchmark.</summary>
    private static string RuntimeName(BenchmarkReport report)
    {
        string info = report.GetRuntimeInfo() ?? report.BenchmarkCase.Job.Environment.Runtime?.Name ?? "unknown runtime";
        int detail = info.IndexOf(" (", StringComparison.Ordinal);
        return (detail > 0 ? info[..detail] : info).Replace(",", ";", StringComparison.Ordinal).Trim();
    }
}
