using Microsoft.Extensions.DependencyInjection;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// Chapter 09's service side: how a service registers <see cref="CatalogClient"/>, and what one request of
/// that service does with it: a scope, the typed client resolved in it, one download.
/// </summary>
public static class ServiceCalls
{
    /// <summary>
    /// Registers the typed client. The factory keeps each handler chain for two minutes (its default) and then
    /// starts a new one, so DNS changes are seen; a client resolved from it never owns the connections.
    /// </summary>
    public static IServiceCollection AddCatalogClient(IServiceCollection services)
    {
        services.AddHttpClient<CatalogClient>()
            .SetHandlerLifetime(TimeSpan.FromMinutes(2));
        return services;
    }

    /// <summary>One request of the service: a scope, a typed client from it, the pooled read.</summary>
    /// <returns>The body's length.</returns>
    public static async Task<int> DownloadAsync(IServiceProvider services, Uri url)
    {
        using IServiceScope scope = services.CreateScope();
        CatalogClient catalog = scope.ServiceProvider.GetRequiredService<CatalogClient>();
        return await catalog.DownloadAsync(url).ConfigureAwait(false);
    }

    /// <summary>The same request, reading the body with <c>GetByteArrayAsync</c>.</summary>
    /// <returns>The body's length.</returns>
    public static async Task<int> DownloadArrayAsync(IServiceProvider services, Uri url)
    {
        using IServiceScope scope = services.CreateScope();
        CatalogClient catalog = scope.ServiceProvider.GetRequiredService<CatalogClient>();
        return await catalog.DownloadArrayAsync(url).ConfigureAwait(false);
    }
}
