using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Checks;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 06's exercise: a request that goes over HTTP/2 without TLS (h2c), measured as S3's POST.</summary>
public sealed class Exercise06() : Exercise(new Exercise06Check(), "06-http2",
    "build a POST that goes over HTTP/2 to an h2c server")
{
    /// <summary>Checks the learner's <c>E06_Http2Request.Create</c>, then measures S3's POST built with it against <paramref name="server"/>.</summary>
    /// <param name="server">The chapter's HTTP/2 server.</param>
    public static ExerciseResult Run(Http2Server server)
    {
        ArgumentNullException.ThrowIfNull(server);
        return ExerciseRunner.Run(new Exercise06(), server.Context, typeof(Exercise06Benchmark), new Dictionary<string, object[]>());
    }

    /// <inheritdoc />
    public override async Task<ExerciseResult> RunAloneAsync()
    {
        await using Http2Server server = await Http2Server.StartAsync().ConfigureAwait(false);
        return Run(server);
    }

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(Http2Post) && r.Variant == nameof(HttpProtocol.Http2) && r.RuntimeMajor == Environment.Version.Major);
}
