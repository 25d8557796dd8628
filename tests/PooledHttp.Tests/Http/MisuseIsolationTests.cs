using System.Text;
using PooledHttp.Buffers;
using PooledHttp.Http;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Http;

/// <summary>
/// A caller that blocks on a pending read (<c>.Result</c>, <c>.GetAwaiter().GetResult()</c>) breaks the "await once,
/// directly" rule, as many call sites of a <see cref="Task"/>-returning API do. It must get what
/// <c>client.GetByteArrayAsync(url).Result</c> gets, a blocking wait and the body, and it must never reach another
/// caller's request or the process.
/// </summary>
public sealed class MisuseIsolationTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    public enum Door
    {
        GetPooled,
        SendPooled,
        ReadPooled,
        RawReader,
    }

    /// <summary>A server that answers each path under <c>/slow</c> with a body that waits for <paramref name="gate"/>; every
    /// other path at once, with its own name as the body.</summary>
    private static RawHttpServer Server(Func<Task> gate) => RawHttpServer.Routing(async (path, socket, stop) =>
    {
        if (path.StartsWith("/slow", StringComparison.Ordinal))
        {
            await RawHttpServer.SendAsync(socket, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", stop);
            await gate().WaitAsync(stop);
            await RawHttpServer.SendAsync(socket, "slow!", stop);
        }
        else
        {
            string body = path.TrimStart('/');
            await RawHttpServer.SendAsync(socket, $"HTTP/1.1 200 OK\r\nContent-Length: {body.Length}\r\n\r\n{body}", stop);
        }
    });

    private static async ValueTask<PooledBuffer> Through(Door door, HttpClient client, Uri address)
    {
        switch (door)
        {
            case Door.GetPooled:
                return await client.GetPooledAsync(address);
            case Door.SendPooled:
                using (var request = new HttpRequestMessage(HttpMethod.Get, address))
                {
                    return await client.SendPooledAsync(request);
                }

            default:
                HttpResponseMessage response = await client.GetAsync(address, HttpCompletionOption.ResponseHeadersRead);
                return door == Door.ReadPooled
                    ? await response.ReadPooledAsync()
                    : await PooledBodyReader.ReadAsync(await response.Content.ReadAsStreamAsync(), response.Content.Headers.ContentLength);
        }
    }

    /// <summary>The door itself, not awaited: what a caller that blocks on it holds.</summary>
    private static ValueTask<PooledBuffer> Pending(Door door, HttpClient client, Uri address, List<HttpResponseMessage> responses)
    {
        switch (door)
        {
            case Door.GetPooled:
                return client.GetPooledAsync(address);
            case Door.SendPooled:
                return client.SendPooledAsync(new HttpRequestMessage(HttpMethod.Get, address));
            default:
                HttpResponseMessage response = client.GetAsync(address, HttpCompletionOption.ResponseHeadersRead).GetAwaiter().GetResult();
                responses.Add(response);
                return door == Door.ReadPooled
                    ? response.ReadPooledAsync()
                    : PooledBodyReader.ReadAsync(response.Content.ReadAsStreamAsync().GetAwaiter().GetResult(), response.Content.Headers.ContentLength);
        }
    }

    [Theory]
    [InlineData(Door.GetPooled)]
    [InlineData(Door.SendPooled)]
    [InlineData(Door.ReadPooled)]
    [InlineData(Door.RawReader)]
    public async Task Blocking_on_a_pending_read_waits_for_the_body_as_GetByteArrayAsync_does_and_leaves_other_callers_alone(Door door)
    {
        var gates = new List<TaskCompletionSource>();
        Task NextGate()
        {
            lock (gates)
            {
                // Each slow body waits for a gate of its own, opened by a timer below once the caller blocks on it.
                var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                gates.Add(gate);
                _ = Task.Run(async () =>
                {
                    await Task.Delay(300);
                    gate.TrySetResult();
                });
                return gate.Task;
            }
        }

        await using RawHttpServer server = Server(NextGate);
        using var client = new HttpClient();
        var responses = new List<HttpResponseMessage>();

        // The runtime's own answer: blocking on GetByteArrayAsync waits and returns the body.
        byte[] runtime = await Task.Run(() => client.GetByteArrayAsync(new Uri(server.Address, "slow0")).Result).WaitAsync(Patience);
        Assert.Equal("slow!", Encoding.ASCII.GetString(runtime));

        // The same misuse twice in a row, each on the same thread as a correct await that follows it: the first
        // caller waits for its body, and the second caller's request reaches the server and gets its own body.
        await Task.Run(async () =>
        {
            for (int i = 1; i <= 2; i++)
            {
                ValueTask<PooledBuffer> pending = Pending(door, client, new Uri(server.Address, $"slow{i}"), responses);
                using (PooledBuffer blocked = pending.Result)
                {
                    Assert.Equal("slow!", Encoding.ASCII.GetString(blocked.Span));
                }

                using PooledBuffer other = await Through(door, client, new Uri(server.Address, $"other{i}")).AsTask().WaitAsync(Patience);
                Assert.Equal($"other{i}", Encoding.ASCII.GetString(other.Span));
            }
        }).WaitAsync(Patience);

        Assert.Equal(["/slow0", "/slow1", "/other1", "/slow2", "/other2"], server.Targets);
        responses.ForEach(r => r.Dispose());
    }

    [Fact]
    public async Task A_read_that_completed_can_be_awaited_as_a_task_any_number_of_times()
    {
        // AsTask, Result and GetAwaiter().GetResult() on a completed read are the caller's own business and hurt nobody.
        await using RawHttpServer server = RawHttpServer.Sending("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc");
        using var client = new HttpClient();
        ValueTask<PooledBuffer> read = client.GetPooledAsync(server.Address);
        Task<PooledBuffer> asTask = read.AsTask();
        using PooledBuffer first = await asTask.WaitAsync(Patience);
        Assert.Same(first, await asTask);
        Assert.Equal("abc"u8.ToArray(), first.ToArray());
    }
}
