using PooledHttp.Workshop.Server;

namespace PooledHttp.Tests.Support;

/// <summary>One local server and one client shared by the tests of a class.</summary>
public sealed class ServerFixture : IAsyncLifetime
{
    public LocalServer Server { get; private set; } = null!;

    public HttpClient Client { get; } = new() { Timeout = TimeSpan.FromSeconds(60) };

    public Task InitializeAsync()
    {
        Server = LocalServer.Start();
        return Task.CompletedTask;
    }

    public async Task DisposeAsync()
    {
        Client.Dispose();
        await Server.DisposeAsync();
    }
}
