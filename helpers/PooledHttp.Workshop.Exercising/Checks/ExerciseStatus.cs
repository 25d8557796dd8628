namespace PooledHttp.Workshop.Checks;

/// <summary>Where a learner's exercise stands after a check.</summary>
public enum ExerciseStatus
{
    /// <summary>The stub is untouched: it still throws <see cref="NotImplementedException"/> (or gives no answer).</summary>
    NotDone,

    /// <summary>The code ran and the check found something wrong: wrong bytes, an array not returned, a limit ignored.</summary>
    Failed,

    /// <summary>Every check held.</summary>
    Passed,
}
