using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Checks;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 05's exercise: post about 2 MB of JSON with a Content-Length while allocating under 8 KiB.</summary>
public sealed class Exercise05() : Exercise(new Exercise05Check(), "05-request-bodies",
    "post 2 MB of JSON with a Content-Length while allocating under 8 KiB")
{
    /// <inheritdoc />
    public override long? AllocationTarget => 8 * 1024;

    /// <summary>Checks the learner's <c>E05_PostJson.PostAsync</c>, then measures it posting about <paramref name="jsonBytes"/> of JSON to <paramref name="server"/>'s sink.</summary>
    /// <param name="server">The notebook's server.</param>
    /// <param name="jsonBytes">About how much JSON to post, in bytes: as many catalogue books as serialize to that.</param>
    public static ExerciseResult Run(LocalServer server, int jsonBytes = 2_000_000)
    {
        ArgumentNullException.ThrowIfNull(server);
        return ExerciseRunner.Run(new Exercise05(), server.Context, typeof(Exercise05Benchmark), new Dictionary<string, object[]> { [nameof(Exercise05Benchmark.Size)] = [jsonBytes] });
    }

    /// <inheritdoc />
    public override Task<ExerciseResult> RunAloneAsync() => OnLocalServerAsync(server => Run(server));

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(RequestBodies) && SameCase(r, yours));
}
