namespace PooledHttp.Workshop.Checks;

/// <summary>What the check process found: a status and a sentence for the learner.</summary>
/// <param name="Status">Passed, failed, or not done yet.</param>
/// <param name="Message">What was checked, or what went wrong and where to look.</param>
/// <param name="AssemblyId">The module version id of the build that was checked, so a measurement can prove it ran the same build.</param>
/// <param name="Answer">A value the learner's code gave that the measurement needs (exercise 01's array length), or null.</param>
public sealed record ExerciseCheck(ExerciseStatus Status, string Message, Guid AssemblyId, int? Answer = null)
{
    /// <summary>The line the check process prints last, and the only one the notebook reads.</summary>
    internal const string Marker = "EXERCISE-CHECK ";
}
