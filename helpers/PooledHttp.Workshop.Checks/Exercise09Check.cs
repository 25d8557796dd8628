using System.Globalization;
using System.Reflection;
using Microsoft.Extensions.DependencyInjection;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Checks;

/// <summary>Chapter 09's check: the learner's typed client <c>E09_BooksClient</c> reads its books pooled, through <c>IHttpClientFactory</c>.</summary>
internal sealed class Exercise09Check() : LearnerCheck("E09", "E09_BooksClient")
{
    /// <summary>The books the check and the measurement ask for: S4's 250, as chapter 09's smaller size.</summary>
    internal const int Books = 250;

    /// <inheritdoc />
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
    internal static IServiceCollection Register(Assembly learner, Action<IHttpClientBuilder>? configure = null)
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
    internal static Func<IServiceProvider, TypedBooksExercise> Resolver(Assembly learner)
    {
        Type type = ClientType(learner);
        MethodInfo method = type.GetMethod("GetBooksAsync", BindingFlags.Public | BindingFlags.Instance)
            ?? throw new InvalidOperationException("E09_BooksClient.GetBooksAsync is missing or not a public instance method: keep the stub's signature.");
        return services => (TypedBooksExercise?)Delegate.CreateDelegate(typeof(TypedBooksExercise), services.GetRequiredService(type), method, throwOnBindFailure: false)
            ?? throw new InvalidOperationException("E09_BooksClient.GetBooksAsync has a different signature from the stub's: keep its parameters and return type.");
    }

    private static Type ClientType(Assembly learner)
        => learner.GetType($"{LearnerCode.Namespace}.E09_BooksClient")
            ?? throw new InvalidOperationException($"The class {LearnerCode.Namespace}.E09_BooksClient is not in {learner.GetName().Name}: did its name or namespace change? The stub declares it.");
}
