using System.Reflection;

namespace PooledHttp.Workshop.Checks;

/// <summary>Chapter 04's check: the learner's <c>E04_PooledDownload.DownloadAsync</c> passes the download checks, one download at a time.</summary>
internal sealed class Exercise04Check() : LearnerCheck("E04", "E04_PooledDownload")
{
    /// <inheritdoc />
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => DownloadChecks.CheckAsync(LearnerCode.Bind<DownloadExercise>(learner, ClassName, "DownloadAsync"), inFlight: 1, cancellationToken);
}
