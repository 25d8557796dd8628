using System.Net;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Tests.Server;

public class Http2ServerTests
{
    [Fact]
    public async Task One_port_speaks_h2c_with_prior_knowledge_and_the_other_http11_and_both_count_the_body()
    {
        await using Http2Server server = await Http2Server.StartAsync();
        using var client = new HttpClient();

        foreach ((Uri address, Version version) in new[] { (server.Http2Address, HttpVersion.Version20), (server.Http11Address, HttpVersion.Version11) })
        {
            using var request = new HttpRequestMessage(HttpMethod.Post, new Uri(address, "/sink"))
            {
                Version = version,
                VersionPolicy = HttpVersionPolicy.RequestVersionExact,
                Content = new ByteArrayContent(new byte[100_000]),
            };
            using HttpResponseMessage response = await client.SendAsync(request);
            Assert.Equal(version, response.Version);
            Assert.Equal("100000", await response.Content.ReadAsStringAsync());
        }

        Assert.True(server.Http2Address.IsLoopback && server.Http11Address.IsLoopback);
        Assert.NotEqual(server.Http2Address.Port, server.Http11Address.Port);
    }

    [Fact]
    public async Task The_h2c_port_turns_away_an_http11_request_with_a_400()
    {
        await using Http2Server server = await Http2Server.StartAsync();
        using var client = new HttpClient();
        using HttpResponseMessage response = await client.PostAsync(new Uri(server.Http2Address, "/sink"), new ByteArrayContent([1, 2, 3]));
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("HTTP/2 only", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }
}
