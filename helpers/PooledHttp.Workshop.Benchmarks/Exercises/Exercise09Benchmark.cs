using System.Globalization;
using BenchmarkDotNet.Attributes;
using Microsoft.Extensions.DependencyInjection;
using PooledHttp.Workshop.Checks;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>The learner's typed client, resolved per request from a service provider as a service's handler gets it, reading 250 books.</summary>
public class Exercise09Benchmark : ExerciseBenchmark
{
    private ServiceProvider _services = null!;
    private Func<IServiceProvider, TypedBooksExercise> _resolve = null!;
    private Uri _url = null!;

    /// <summary>How many books the API returns (named as in <see cref="ServiceJson"/>, so the rows line up).</summary>
    public int Books { get; set; }

    /// <summary>Your typed client, resolved for the request.</summary>
    [Benchmark]
    public Task<Book[]> Yours() => _resolve(_services)(_url, CancellationToken.None);

    /// <inheritdoc />
    protected override void PrepareExercise()
    {
        _services = Exercise09Check.Register(Learner).BuildServiceProvider();
        _resolve = Exercise09Check.Resolver(Learner);
        _url = new Uri(BenchmarkServer.Address, string.Create(CultureInfo.InvariantCulture, $"/books?count={Books}"));
    }

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _services?.Dispose();
        }

        base.Dispose(disposing);
    }
}
