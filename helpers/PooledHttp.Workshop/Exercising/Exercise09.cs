using System.Globalization;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Checks;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 09's exercise: a typed client from <c>IHttpClientFactory</c> whose books come from the pooled read.</summary>
public sealed class Exercise09() : Exercise(new Exercise09Check(), "09-your-service",
    "make a typed client read its books pooled, deserialized from the lease")
{
    /// <summary>
    /// The most one request may allocate: the books themselves and the typed client's resolve with room to spare,
    /// but less than buffering the body first (<c>ReadFromJsonAsync</c> after <c>GetAsync</c>) costs;
    /// <c>GetFromJsonAsync</c> streams and passes too (figures in docs/measurements.md).
    /// </summary>
    private const long TargetPerRequest = 112 * 1024;

    /// <inheritdoc />
    public override long? AllocationTarget => TargetPerRequest;

    /// <summary>Checks the learner's <c>E09_BooksClient</c>, then measures it reading 250 books from <paramref name="server"/>.</summary>
    /// <param name="server">The notebook's server.</param>
    public static ExerciseResult Run(LocalServer server)
    {
        ArgumentNullException.ThrowIfNull(server);
        return ExerciseRunner.Run(new Exercise09(), server.Context, typeof(Exercise09Benchmark), new Dictionary<string, object[]> { [nameof(Exercise09Benchmark.Books)] = [Exercise09Check.Books] });
    }

    /// <inheritdoc />
    public override Task<ExerciseResult> RunAloneAsync() => OnLocalServerAsync(server => Run(server));

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(ServiceJson) && r.RuntimeMajor == Environment.Version.Major && r.Variant == $"Books={Exercise09Check.Books}");
}
