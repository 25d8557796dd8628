using System.Reflection;

namespace PooledHttp.Workshop.Checks;

/// <summary>Chapter 01's check: the learner's <c>E01_LargeObjectThreshold.SmallestGen2Array</c> is the smallest <c>byte[]</c> born in Gen2.</summary>
internal sealed class Exercise01Check() : LearnerCheck("E01", "E01_LargeObjectThreshold")
{
    /// <inheritdoc />
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => Task.FromResult(Check(Answer(learner)!.Value));

    /// <summary>The check itself, for any answer.</summary>
    internal static string Check(int length)
    {
        if (length == 0)
        {
            throw new NotImplementedException("SmallestGen2Array is still 0: find the answer and write it");
        }

        if (length < 2)
        {
            throw new ExerciseCheckFailedException($"{length} is not an array length worth trying: the answer is somewhere between a few bytes and a few hundred thousand.");
        }

        int born = GC.GetGeneration(new byte[length]);
        int shorter = GC.GetGeneration(new byte[length - 1]);
        if (born != 2)
        {
            throw new ExerciseCheckFailedException($"new byte[{length:N0}] is born in Gen{born}: too small. Try larger.");
        }

        if (shorter == 2)
        {
            throw new ExerciseCheckFailedException($"new byte[{length:N0}] is born in Gen2, and so is new byte[{length - 1:N0}]: the smallest is smaller still.");
        }

        return $"new byte[{length:N0}] is born in Gen2 and new byte[{length - 1:N0}] in Gen{shorter}, in the check process on .NET {Environment.Version}.";
    }

    /// <inheritdoc />
    internal override int? Answer(Assembly learner) => LearnerCode.Read<int>(learner, ClassName, "SmallestGen2Array");
}
