using System.Text.Json;
using PooledHttp.Workshop.Exercising;

namespace PooledHttp.Workshop.Checks;

/// <summary>
/// The check process's entry point: the exercises project's <c>Program.cs</c> calls it with its own
/// assembly. It runs one exercise's check (<see cref="Exercise.CheckAsync"/>) against that build and prints one line the notebook reads:
/// <c>EXERCISE-CHECK {json}</c>. Learner code runs here, never in the notebook's kernel, so a loop that
/// never ends or a crash costs a process, not the kernel.
/// </summary>
public static class ExerciseHost
{
    /// <summary>Longest a check may take before the notebook stops waiting (a loop that never ends).</summary>
    public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(90);

    /// <summary>Runs <c>check &lt;id&gt;</c>; returns the exit code (0 whenever a verdict was printed).</summary>
    public static async Task<int> RunAsync(string[] args, Assembly learner)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(learner);
        if (args.Length != 2 || args[0] != "check")
        {
            await Console.Error.WriteLineAsync("usage: check <an exercise id, as Exercise.All lists them> (the notebooks' ExerciseNN.Run calls run this; run those instead)").ConfigureAwait(false);
            return 2;
        }

        Exercise? exercise = Exercise.All.FirstOrDefault(e => e.Id == args[1]);
        if (exercise is null)
        {
            await Console.Error.WriteLineAsync($"No exercise {args[1]}: there are {string.Join(", ", Exercise.All.Select(e => e.Id))}.").ConfigureAwait(false);
            return 2;
        }

        ExerciseCheck verdict = await CheckAsync(exercise, learner).ConfigureAwait(false);
        Console.WriteLine(ExerciseCheck.Marker + JsonSerializer.Serialize(verdict));
        return 0;
    }

    private static async Task<ExerciseCheck> CheckAsync(Exercise exercise, Assembly learner)
    {
        Guid build = learner.ManifestModule.ModuleVersionId;
        using var cancel = new CancellationTokenSource(Timeout - TimeSpan.FromSeconds(10));
        try
        {
            string passed = await exercise.CheckAsync(learner, cancel.Token).ConfigureAwait(false);
            return new ExerciseCheck(ExerciseStatus.Passed, passed, build, exercise.Answer(learner));
        }
        catch (Exception e) when (NotImplemented(e) is { } stub)
        {
            return new ExerciseCheck(ExerciseStatus.NotDone, $"Exercise not done yet: {exercise.File} is still the stub (\"{stub.Message}\"). Write it, save, and run it again.", build);
        }
        catch (ExerciseCheckFailedException e)
        {
            return new ExerciseCheck(ExerciseStatus.Failed, e.Message, build);
        }
        catch (Exception e)
        {
            return new ExerciseCheck(ExerciseStatus.Failed, $"Your code threw {e.GetType().Name}: {e.Message}{Environment.NewLine}{Where(e)}", build);
        }
    }

    /// <summary>The stub's <see cref="NotImplementedException"/>, wherever it is wrapped; null when there is none.</summary>
    private static NotImplementedException? NotImplemented(Exception e) => e switch
    {
        NotImplementedException stub => stub,
        AggregateException a => a.InnerExceptions.Select(NotImplemented).FirstOrDefault(s => s is not null),
        _ => e.InnerException is null ? null : NotImplemented(e.InnerException),
    };

    /// <summary>The stack frames in the learner's file, which are the ones worth reading.</summary>
    private static string Where(Exception e)
        => string.Join(Environment.NewLine, (e.StackTrace ?? string.Empty).Split(Environment.NewLine).Where(line => line.Contains(LearnerCode.Namespace, StringComparison.Ordinal)).Take(5));
}
