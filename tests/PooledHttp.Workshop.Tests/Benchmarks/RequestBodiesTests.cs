using System.Reflection;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using Google.Protobuf;
using PooledHttp.Benchmarks;
using PooledHttp.Content;
using PooledHttp.Server;

namespace PooledHttp.Tests.Benchmarks;

/// <summary>
/// Chapter 05's strategies, called directly against the local sink: each POST delivers the whole body,
/// so a row never measures a short one. Sets the benchmark server variable, so it runs alone.
/// </summary>
[Collection(Support.SerialTests.Name)]
public class RequestBodiesTests
{
    [Theory]
    [InlineData(typeof(RequestBodies))]
    [InlineData(typeof(SerializeThenSend))]
    public async Task Every_post_delivers_the_whole_body_to_the_sink(Type benchmark)
    {
        await using LocalServer server = LocalServer.Start();
        Environment.SetEnvironmentVariable(BenchmarkServer.AddressVariable, server.BaseAddress.ToString());
        try
        {
            var instance = (DownloadBenchmark)Activator.CreateInstance(benchmark)!;
            benchmark.GetProperty("Size")!.SetValue(instance, 70_000);
            instance.Setup();
            Book[] books = Book.Catalogue(RequestBodies.BooksFor(70_000));
            long json = JsonSerializer.SerializeToUtf8Bytes(books, PooledJson.Options).Length;
            long protobuf = BookMessages.SizeOf(books);

            MethodInfo[] posts = benchmark.GetMethods().Where(m => m.GetCustomAttribute<BenchmarkAttribute>() is not null && m.ReturnType == typeof(Task<long>)).ToArray();
            Assert.NotEmpty(posts);
            foreach (MethodInfo post in posts)
            {
                long received = await (Task<long>)post.Invoke(instance, null)!;
                long expected = post.Name.StartsWith("GoogleProtobuf", StringComparison.Ordinal) ? protobuf : json;
                Assert.True(received == expected, $"{benchmark.Name}.{post.Name}: the sink received {received:N0} B, the body is {expected:N0} B");
            }

            instance.Dispose();
        }
        finally
        {
            Environment.SetEnvironmentVariable(BenchmarkServer.AddressVariable, null);
        }
    }

    [Fact]
    public void The_protobuf_body_holds_the_same_books_as_the_json_one_and_is_smaller()
    {
        Book[] books = Book.Catalogue(RequestBodies.BooksFor(70_000));
        byte[] body = BookMessages.From(books).ToByteArray();
        Assert.Equal(books, BookMessages.Read(body));
        Assert.True(body.Length < JsonSerializer.SerializeToUtf8Bytes(books, PooledJson.Options).Length);
    }
}
