// dotnet run -c Release --project tools/RunExercise -- <exercise (E04, E4 or 4) | all> [--quick]
//
// Runs an exercise exactly as its chapter's "Your turn" cell does: ExerciseNN.Run, with the servers
// that cell has, builds exercises/, checks your code in a process of its own and, when the check passes,
// measures it with BenchmarkDotNet. It prints the verdict, your rows beside the chapter's, and where the
// chart was written. Exit code 0 when every exercise asked for passed its check and met its goal.
using System.CommandLine;
using PooledHttp.Tools;
using PooledHttp.Workshop.Exercising;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Notebooks;
using PooledHttp.Workshop.Server;

string ids = string.Join(", ", Exercise.All.Select(e => e.Id));
string Usage = $"usage: dotnet run -c Release --project tools/RunExercise -- <{ids} | all> [--quick]";
string listed = string.Join(", ", Exercise.All.Select(e => $"{e.Id} ({e.File})"));
var exercises = new Argument<Exercise[]>("exercises")
{
    Description = $"An exercise by its id, with or without the E and the leading zero (E04, E4, 4), or all. The exercises: {listed}",
    Arity = ArgumentArity.ZeroOrMore,
    CustomParser = result => [.. result.Tokens.SelectMany<System.CommandLine.Parsing.Token, Exercise>(token =>
    {
        if (token.Value.Equals("all", StringComparison.OrdinalIgnoreCase))
        {
            return Exercise.All;
        }

        if (Exercise.All.FirstOrDefault(e => e.Id.Equals(CanonicalId(token.Value), StringComparison.OrdinalIgnoreCase)) is { } exercise)
        {
            return [exercise];
        }

        result.AddError($"No exercise {token.Value}: there are {string.Join(", ", Exercise.All.Select(e => e.Id))}.");
        return [];
    }).Distinct()],
}.RejectingUnknownOptions();
var quick = new Option<bool>("--quick") { Description = "The quick measuring profile: faster, rougher figures." };
var command = new RootCommand(
    "Runs an exercise exactly as its chapter's \"Your turn\" cell does: builds exercises/, checks your code in a process of its own and, "
    + "when the check passes, measures it beside the chapter's rows and draws the chart. Exit code 0 when every exercise asked for passed its check and met its goal.\n  "
    + Usage)
{
    exercises, quick,
};
command.Validators.Add(result =>
{
    if (result.GetResult(exercises)?.Tokens.Count is null or 0)
    {
        result.AddError($"Which exercise?{Environment.NewLine}{Usage}{Environment.NewLine}  exercises: {listed}");
    }
});
command.SetAction((parsed, _) => RunAsync(parsed.GetValue(exercises)!, parsed.GetValue(quick)));
return await ToolCommandLine.InvokeAsync(command, args);

async Task<int> RunAsync(Exercise[] chosen, bool quickProfile)
{
    if (quickProfile)
    {
        RunContext.Current.With(new RunContext { Profile = "quick" }).SetForThisProcess();
    }

    var outcomes = new List<(Exercise Exercise, ExerciseResult Result)>();
    foreach (Exercise exercise in chosen)
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
            PooledHttp.Workshop.Charts.PlotlyHtml.Save(result.MeasuredChart(chapter), chart);
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

    int done = outcomes.Count(o => o.Result.Done);
    Console.WriteLine($"{done} of {outcomes.Count} exercise(s) done.");
    return done == outcomes.Count ? 0 : 1;
}

// "E4", "e04", "4" and "04" all name E04, as the runner takes "4" for chapter 04; anything else stays as typed, for the error.
static string CanonicalId(string typed)
{
    string digits = typed.StartsWith('E') || typed.StartsWith('e') ? typed[1..] : typed;
    return int.TryParse(digits, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out int number)
        ? $"E{number:00}"
        : typed;
}
