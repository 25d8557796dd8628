using System.Reflection;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Content;
using PooledHttp.Workshop.Server;

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
        server.Context.SetForThisProcess();
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
                long expected = post.Name.StartsWith("Protobuf", StringComparison.Ordinal) ? protobuf : json;
                Assert.True(received == expected, $"{benchmark.Name}.{post.Name}: the sink received {received:N0} B, the body is {expected:N0} B");
            }

            instance.Dispose();
        }
        finally
        {
            Environment.SetEnvironmentVariable(RunContext.Variable, null);
        }
    }

    [Fact]
    public void The_protobuf_body_holds_the_same_books_as_the_json_one_in_the_books_wire_shape_and_is_smaller()
    {
        Book[] books = Book.Catalogue(RequestBodies.BooksFor(70_000));
        using var stream = new MemoryStream();
        BookMessages.Write(stream, books);
        byte[] body = stream.ToArray();

        Assert.Equal(body.Length, BookMessages.SizeOf(books));
        Assert.Equal(books, BookMessages.Read(body));
        Assert.True(body.Length < JsonSerializer.SerializeToUtf8Bytes(books, PooledJson.Options).Length);

        // Read by hand, as any protobuf library would: field 1 (length-delimited) per book, and in it fields 1-4 as strings.
        int at = 0;
        Assert.Equal(0x0A, body[at++]);
        int bookEnd = ReadVarint(body, ref at);
        bookEnd += at;
        var fields = new List<string>();
        for (int tag = 1; at < bookEnd; tag++)
        {
            Assert.Equal((tag << 3) | 2, body[at++]);
            int length = ReadVarint(body, ref at);
            fields.Add(System.Text.Encoding.UTF8.GetString(body, at, length));
            at += length;
        }

        Assert.Equal([books[0].Id, books[0].Title, books[0].Author, books[0].Isbn], fields);
    }

    private static int ReadVarint(byte[] bytes, ref int at)
    {
        int value = 0;
        for (int shift = 0; ; shift += 7)
        {
            byte b = bytes[at++];
            value |= (b & 0x7F) << shift;
            if (b < 0x80)
            {
                return value;
            }
        }
    }
}
