// dotnet run -c Release --project tools/RunExercise -- <E01..E09 | all> [--quick]
//
// Runs an exercise exactly as its chapter's "Your turn" cell does: ExerciseNN.Run, with the servers
// that cell has, builds exercises/, checks your code in a process of its own and, when the check passes,
// measures it with BenchmarkDotNet. It prints the verdict, your rows beside the chapter's, and where the
// chart was written. Exit code 0 when every exercise asked for passed its check and met its goal.
using PooledHttp.Workshop.Exercising;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Notebooks;

string[] ids = [.. args.Where(a => !a.StartsWith("--", StringComparison.Ordinal))];
string[] unknownOptions = [.. args.Where(a => a.StartsWith("--", StringComparison.Ordinal) && a is not "--quick" and not "--help")];
if (args.Contains("--help") || ids.Length == 0 || unknownOptions.Length > 0)
{
    Console.Error.WriteLine(unknownOptions.Length > 0 ? $"Unknown option {unknownOptions[0]}." : "Which exercise?");
    Console.Error.WriteLine("usage: dotnet run -c Release --project tools/RunExercise -- <E01..E09 | all> [--quick]");
    Console.Error.WriteLine($"  exercises: {string.Join(", ", Exercise.All.Select(e => $"{e.Id} ({e.File})"))}");
    Console.Error.WriteLine("  --quick   the quick measuring profile: faster, rougher figures");
    return args.Contains("--help") && unknownOptions.Length == 0 ? 0 : 2;
}

if (args.Contains("--quick"))
{
    Environment.SetEnvironmentVariable(MeasurementProfile.Variable, "quick");
}

List<Exercise> chosen = [];
foreach (string id in ids)
{
    if (id.Equals("all", StringComparison.OrdinalIgnoreCase))
    {
        chosen.AddRange(Exercise.All);
        continue;
    }

    Exercise? exercise = Exercise.All.FirstOrDefault(e => e.Id.Equals(id, StringComparison.OrdinalIgnoreCase));
    if (exercise is null)
    {
        Console.Error.WriteLine($"No exercise {id}: there are {string.Join(", ", Exercise.All.Select(e => e.Id))}.");
        return 2;
    }

    chosen.Add(exercise);
}

var outcomes = new List<(Exercise Exercise, ExerciseResult Result)>();
foreach (Exercise exercise in chosen.Distinct())
{
    Console.WriteLine($"== {exercise.Id} · {exercise.Title} ({exercise.File})");
    ExerciseResult result = await exercise.RunAloneAsync();
    Console.WriteLine(result);
    (MeasurementResult chapter, string from) = ChapterRows.Of(exercise.Notebook);
    if (result.Measured is null)
    {
        // Not done, or the check failed: nothing of yours to set beside the chapter's rows yet.
    }
    else if (chapter.Count == 0)
    {
        Console.WriteLine($"No rows of {exercise.Notebook} to set beside yours: run the chapter once (editor or runner) to get them.");
    }
    else
    {
        Console.WriteLine($"Beside the chapter's rows ({from}):");
        Console.WriteLine(new MeasurementResult(result.BesideRows(chapter)));
        string chart = Path.Combine(WorkshopPaths.Root, "artifacts", "exercises", exercise.Id + ".html");
        Directory.CreateDirectory(Path.GetDirectoryName(chart)!);
        PooledHttp.Workshop.Charts.PlotlyHtml.Save(result.Chart(chapter), chart);
        Console.WriteLine($"Chart: {chart}");
    }

    Console.WriteLine();
    outcomes.Add((exercise, result));
}

Console.WriteLine("Exercises:");
foreach ((Exercise exercise, ExerciseResult result) in outcomes)
{
    string goal = result.GoalMet switch { true => ", goal met", false => ", goal not met yet", null => string.Empty };
    Console.WriteLine($"  {exercise.Id}  {result.Status}{goal}  {exercise.File}");
}

int done = outcomes.Count(o => o.Result.Status == ExerciseStatus.Passed && o.Result.GoalMet != false);
Console.WriteLine($"{done} of {outcomes.Count} exercise(s) done.");
return done == outcomes.Count ? 0 : 1;
