using System.Globalization;
using Microsoft.Extensions.DependencyInjection;

namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 09's exercise: a typed client from <c>IHttpClientFactory</c> whose books come from the pooled read.</summary>
public sealed class Exercise09() : Exercise("E09", ClientClass, "09-your-service",
    "make a typed client read its books pooled, deserialized from the lease")
{
    /// <summary>The books the check and the measurement ask for: S4's 250, as chapter 09's smaller size.</summary>
    private const int Books = 250;

    /// <summary>The learner's typed client: a class the factory makes, not a static method, so it is bound here by hand.</summary>
    private const string ClientClass = "E09_BooksClient";

    /// <summary>The typed client's one method, an instance method.</summary>
    private const string GetBooksMethod = "GetBooksAsync";

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
        return ExerciseRunner.Run(new Exercise09(), server.Context, typeof(Benchmark), new Dictionary<string, object[]> { [nameof(Benchmark.Books)] = [Books] });
    }

    /// <inheritdoc />
    public override Task<ExerciseResult> RunAloneAsync() => OnLocalServerAsync(server => Run(server));

    /// <summary>The learner's typed client reads its books pooled, through <c>IHttpClientFactory</c>.</summary>
    internal override async Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
    {
        var observer = new ObservingHandler();
        await using ServiceProvider services = Register(learner, builder => builder.ConfigurePrimaryHttpMessageHandler(() => observer)).BuildServiceProvider();
        Func<IServiceProvider, TypedBooksExercise> resolve = Resolver(learner);
        return await CheckAsync(() => resolve(services), observer, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>The check itself, for any typed client: the tests hand it known-bad ones too.</summary>
    internal static async Task<string> CheckAsync(Func<TypedBooksExercise> resolve, ObservingHandler observer, CancellationToken cancellationToken)
    {
        await using LocalServer server = LocalServer.Start();
        foreach (int count in new[] { 0, 5, Books, 2_500 })
        {
            Book[] books = await resolve()(server.Url(string.Create(CultureInfo.InvariantCulture, $"books?count={count}")), cancellationToken).ConfigureAwait(false);
            string what = $"{count:N0} books";
            if (books is null || !books.SequenceEqual(Book.Catalogue(count)))
            {
                throw new ExerciseCheckFailedException($"{what}: got {books?.Length.ToString("N0", CultureInfo.InvariantCulture) ?? "null"} books, or not the ones the server sent.");
            }

            if (observer.Responses.Any(r => r.Buffered))
            {
                throw new ExerciseCheckFailedException($"{what}: the body was buffered whole by the content before you read it (GetAsync's default completion option). Read it with GetPooledAsync: the bytes go into a rented array, nowhere else.");
            }

            if (observer.Responses.Any(r => !r.Disposed))
            {
                throw new ExerciseCheckFailedException($"{what}: a response was not disposed.");
            }
        }

        try
        {
            await resolve()(server.Url("status?code=404"), cancellationToken).ConfigureAwait(false);
            throw new ExerciseCheckFailedException("A 404 returned books: a failed status must throw (HttpRequestException), not look like an empty catalogue.");
        }
        catch (HttpRequestException)
        {
            // what the runtime's GetFromJsonAsync does too
        }

        return "Reads 0, 5, 250 and 2,500 books right through the factory's typed client, never buffering a body, disposing every response, and throws on a 404.";
    }

    /// <summary>The learner's class registered as a typed client, exactly as <c>services.AddHttpClient&lt;E09_BooksClient&gt;()</c> would.</summary>
    private static ServiceCollection Register(Assembly learner, Action<IHttpClientBuilder>? configure = null)
    {
        Type type = ClientType(learner);
        MethodInfo add = typeof(HttpClientFactoryServiceCollectionExtensions).GetMethods()
            .Single(m => m.Name == nameof(HttpClientFactoryServiceCollectionExtensions.AddHttpClient) && m.IsGenericMethodDefinition && m.GetGenericArguments().Length == 1 && m.GetParameters().Length == 1)
            .MakeGenericMethod(type);
        var services = new ServiceCollection();
        var builder = (IHttpClientBuilder)add.Invoke(null, [services])!;
        configure?.Invoke(builder);
        return services;
    }

    /// <summary>
    /// The learner's class and method, found once; the function it returns resolves a new instance from a service
    /// provider and binds its method, which is all a request does (the benchmark calls it per operation).
    /// </summary>
    private static Func<IServiceProvider, TypedBooksExercise> Resolver(Assembly learner)
    {
        Type type = ClientType(learner);
        MethodInfo method = type.GetMethod(GetBooksMethod, BindingFlags.Public | BindingFlags.Instance)
            ?? throw new InvalidOperationException($"{ClientClass}.{GetBooksMethod} is missing or not a public instance method: keep the stub's signature.");
        return services => (TypedBooksExercise?)Delegate.CreateDelegate(typeof(TypedBooksExercise), services.GetRequiredService(type), method, throwOnBindFailure: false)
            ?? throw new InvalidOperationException($"{ClientClass}.{GetBooksMethod} has a different signature from the stub's: keep its parameters and return type.");
    }

    private static Type ClientType(Assembly learner)
        => learner.GetType($"{LearnerCode.Namespace}.{ClientClass}")
            ?? throw new InvalidOperationException($"The class {LearnerCode.Namespace}.{ClientClass} is not in {learner.GetName().Name}: did its name or namespace change? The stub declares it.");

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(ServiceJson) && r.RuntimeMajor == Environment.Version.Major && r.Variant == $"Books={Books}");

    /// <summary>The learner's typed client, resolved per request from a service provider as a service's handler gets it, reading 250 books.</summary>
    public class Benchmark : ExerciseBenchmark
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
            _services = Register(Learner).BuildServiceProvider();
            _resolve = Resolver(Learner);
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
}
