using System.Diagnostics;
using System.Text.Json;
using PooledHttp.Workshop.Building;
using PooledHttp.Workshop.Notebooks;

namespace PooledHttp.Workshop.Exercising;

/// <summary>
/// What an exercise's <c>Run</c> call does from the notebook: build the exercises project, check the
/// learner's code in a process of its own, and, when it passes, measure it with BenchmarkDotNet.
/// </summary>
/// <remarks>
/// The kernel never loads the learner's assembly. Every call builds it into <c>artifacts/exercises/</c>
/// (skipped when nothing it reads changed); the check process and the benchmark process each load that build, and
/// both prove by its module id that they ran the build this call made. So an edit in the editor shows
/// up on the next run of the cell, and a stale build is refused rather than measured.
/// </remarks>
public static class ExerciseRunner
{
    /// <summary>
    /// The project the calls build: <c>exercises/PooledHttp.Exercises.csproj</c> unless the run context names another
    /// with the same classes (<see cref="RunContext.ExercisesProject"/>: the tests name the solutions).
    /// </summary>
    public static string Project => RunContext.Current.ExercisesProject is { Length: > 0 } other
        ? Path.GetFullPath(other)
        : Path.Combine(WorkshopPaths.Root, "exercises", "PooledHttp.Exercises.csproj");

    /// <summary>Builds, checks and, when the check passes, measures <paramref name="exercise"/>.</summary>
    internal static ExerciseResult Run(Exercise exercise, RunContext servers, Type benchmark, IReadOnlyDictionary<string, object[]> parameters)
    {
        string project = Project;
        var clock = Stopwatch.StartNew();
        Console.WriteLine($"{exercise.Id} · building {Path.GetFileName(project)}...");
        (string? assembly, string problems) = Build(project);
        TimeSpan built = clock.Elapsed;
        if (assembly is null)
        {
            return Finish(new ExerciseResult(exercise, new ExerciseCheck(ExerciseStatus.Failed, "The exercises project does not compile:" + Environment.NewLine + problems, Guid.Empty), null, built, TimeSpan.Zero, TimeSpan.Zero));
        }

        Guid build = BuildOutput.ModuleId(assembly);
        Console.WriteLine($"{exercise.Id} · checking {exercise.File}...");
        ExerciseCheck check = Check(assembly, exercise);
        TimeSpan checkedAt = clock.Elapsed;
        if (check.Status != ExerciseStatus.Passed)
        {
            return Finish(new ExerciseResult(exercise, check, null, built, checkedAt - built, TimeSpan.Zero));
        }

        if (check.AssemblyId != build)
        {
            throw new InvalidOperationException($"The check ran build {check.AssemblyId}, not {build}, which this call made: another build overwrote {assembly}. Run the cell again.");
        }

        IReadOnlyDictionary<string, object[]> measuredWith = exercise.ParametersFor(check, parameters);
        RunContext context = servers.With(new RunContext { ExercisesAssembly = assembly, ExercisesBuild = build });
        MeasurementResult measured = Measure.Run(exercise.Notebook, context, benchmark, measuredWith);
        return Finish(new ExerciseResult(exercise, check, measured, built, checkedAt - built, clock.Elapsed - checkedAt));
    }

    /// <summary>Records the verdict where the headless runner sums them up, and returns it.</summary>
    private static ExerciseResult Finish(ExerciseResult result)
    {
        RunSummary.AddExercise(result.Exercise.Notebook, result.Exercise.Id, result.Exercise.File, result.Check.Status.ToString(), result.Check.Message, result.GoalMet, result.Done);
        return result;
    }

    /// <summary>Builds <paramref name="project"/> in Release into a folder of its own; the assembly's path, or null and the compiler's errors.</summary>
    private static (string? Assembly, string Problems) Build(string project)
    {
        if (!File.Exists(project))
        {
            throw new FileNotFoundException($"The exercises project is not at {project}.", project);
        }

        // A headless run of the series checks seven untouched stubs: the build that would change nothing is skipped.
        string name = Path.GetFileNameWithoutExtension(project);
        (string? assembly, string? failure) = BuildOutput.BuildAsync($"the exercises ({Path.GetFileName(project)})", project, Path.Combine(WorkshopPaths.Root, "artifacts", "exercises", name)).GetAwaiter().GetResult();
        if (failure is not null)
        {
            // One line per distinct error, without MSBuild's project suffix: what the learner needs to fix.
            IEnumerable<string> errors = failure.Split('\n')
                .Where(line => line.Contains(": error ", StringComparison.Ordinal))
                .Select(line => line.Split(" [", 2)[0].Trim())
                .Distinct();
            return (null, string.Join(Environment.NewLine, errors.DefaultIfEmpty(failure)));
        }

        return (assembly, string.Empty);
    }

    /// <summary>
    /// Runs the check process and reads its verdict. The verdict line counts as soon as it is printed: a
    /// process that has printed it but is slow to exit is stopped, not waited for. A process that prints
    /// nothing within <see cref="ExerciseHost.Timeout"/> is stopped and reported with what it did print.
    /// </summary>
    private static ExerciseCheck Check(string assembly, Exercise exercise)
    {
        ChildResult result;
        try
        {
            result = ChildProcess.RunAsync("dotnet", [assembly, "check", exercise.Id], ExerciseHost.Timeout, until: line => line.StartsWith(ExerciseCheck.Marker, StringComparison.Ordinal)).GetAwaiter().GetResult();
        }
        catch (TimeoutException timeout)
        {
            return new ExerciseCheck(ExerciseStatus.Failed, $"The check did not finish in {ExerciseHost.Timeout.TotalSeconds:0} s: is there a loop that never ends, or a read that waits for bytes that never come?{Environment.NewLine}{timeout.Message}", Guid.Empty);
        }

        if (result.Said is { } verdict)
        {
            return JsonSerializer.Deserialize<ExerciseCheck>(verdict[ExerciseCheck.Marker.Length..])!;
        }

        string said = (result.Output + result.Error).TrimEnd();
        return new ExerciseCheck(ExerciseStatus.Failed, $"The check process ended (exit code {result.ExitCode}) without a verdict:{Environment.NewLine}{said}".TrimEnd(), Guid.Empty);
    }
}
