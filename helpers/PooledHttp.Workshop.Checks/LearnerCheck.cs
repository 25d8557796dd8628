using System.Reflection;

namespace PooledHttp.Workshop.Checks;

/// <summary>
/// One exercise's check, run in the check process against the learner's build: each chapter's
/// <c>ExerciseNNCheck</c> derives from this, and the notebook's <c>ExerciseNN</c> takes its id and file from it.
/// </summary>
/// <param name="id">"E04": the chapter's number, which also orders the exercises.</param>
/// <param name="className">The class the learner edits, in namespace <see cref="LearnerCode.Namespace"/>; its file has the same name.</param>
public abstract class LearnerCheck(string id, string className)
{
    /// <summary>"E04": the chapter's number, which also orders the exercises.</summary>
    public string Id { get; } = id;

    /// <summary>The class the learner edits, in namespace <see cref="LearnerCode.Namespace"/>; its file has the same name.</summary>
    public string ClassName { get; } = className;

    /// <summary>The file to open, relative to the repository root.</summary>
    public string File => $"exercises/{ClassName}.cs";

    /// <summary>
    /// Every check, in chapter order: each concrete <see cref="LearnerCheck"/> in this assembly, so adding an
    /// exercise's check is adding its file. The check process finds the one it is asked for here.
    /// </summary>
    public static IReadOnlyList<LearnerCheck> All { get; } =
    [
        .. typeof(LearnerCheck).Assembly.GetTypes()
            .Where(t => t.IsSubclassOf(typeof(LearnerCheck)) && !t.IsAbstract)
            .Select(t => (LearnerCheck)Activator.CreateInstance(t)!)
            .OrderBy(c => c.Id, StringComparer.Ordinal),
    ];

    /// <summary>
    /// Throws <see cref="ExerciseCheckFailedException"/> with a sentence for the learner when something is wrong,
    /// and returns what was checked when all held. A <see cref="NotImplementedException"/> from the stub means
    /// "not done yet".
    /// </summary>
    internal abstract Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken);

    /// <summary>A value the check found that the measurement needs (exercise 01's array length); null for most.</summary>
    internal virtual int? Answer(Assembly learner) => null;
}
