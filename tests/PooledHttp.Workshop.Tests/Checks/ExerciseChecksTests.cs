using System.Buffers;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using PooledHttp.Buffers;
using PooledHttp.Workshop.Exercising;
using PooledHttp.Http;
using PooledHttp.Workshop.Server;
using PooledHttp.Workshop.Checks;

namespace PooledHttp.Tests.Checks;

/// <summary>
/// The checks catch the mistakes they exist for. Each is handed code with one known mistake and must
/// fail it with a sentence that points at the mistake, and handed correct code (the library itself,
/// where it does the job) and must pass it: a check that passes everything teaches nothing.
/// </summary>
public class ExerciseChecksTests
{
    private static readonly CancellationToken None = CancellationToken.None;

    [Fact]
    public async Task The_library_pooled_read_passes_the_download_check_with_64_in_flight()
    {
        DownloadExercise library = async (client, url, pool, maxBytes, received, token) =>
        {
            using PooledBuffer body = await client.GetPooledAsync(url, maxBytes, pool, token);
            received(body.Span);
            return body.Length;
        };

        string passed = await DownloadChecks.CheckAsync(library, inFlight: 64, None);
        Assert.Contains("64 downloads in flight", passed, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_pool_check_passes_a_pool_sized_for_the_load_and_fails_the_usual_mistakes()
    {
        const int MiB = 1024 * 1024;
        string passed = await Exercise07.CheckPoolAsync((n, size) => BodyPool.Create(n, size), None);
        Assert.Contains("from the pool alone", passed, StringComparison.Ordinal);

        // No budget at all: it would stop allocating by keeping whatever it likes.
        var shared = await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => Exercise07.CheckPoolAsync((_, _) => ArrayPool<byte>.Shared, None));
        Assert.Contains("BoundedArrayPool", shared.Message, StringComparison.Ordinal);

        // Sized for bodies of 1 MiB: the second round misses.
        var small = await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => Exercise07.CheckPoolAsync((n, _) => BodyPool.Create(n, MiB), None));
        Assert.Contains("found no free array", small.Message, StringComparison.Ordinal);

        // The default pool: 256 MiB for 512 MiB of bodies.
        var shared256 = await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => Exercise07.CheckPoolAsync((_, _) => BodyPool.Shared, None));
        Assert.Contains("does not hold 64 bodies", shared256.Message, StringComparison.Ordinal);

        // Exactly the bodies in flight is not enough for bodies without a length on a plain pool: each grows through
        // smaller arrays (16 KiB, fourfold, to 4 MiB) that are returned first and kept, and a return that does not fit
        // is refused, so the bodies' own arrays find no room. BodyPool.Create starts each body at its size instead.
        var exact = await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => Exercise07.CheckPoolAsync((n, size) => new BoundedArrayPool((long)n * size), None));
        Assert.Contains("found no free array", exact.Message, StringComparison.Ordinal);

        // Room for the bodies and the arrays they grow through (a third of a body, fourfold growth): enough.
        Assert.Contains("from the pool alone", await Exercise07.CheckPoolAsync((n, size) => new BoundedArrayPool((long)n * size * 2), None), StringComparison.Ordinal);

        // A gigabyte "just in case".
        var huge = await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => Exercise07.CheckPoolAsync((_, _) => new BoundedArrayPool(4L * 1024 * MiB), None));
        Assert.Contains("more than 4 times", huge.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task S0s_single_read_fails_the_download_check_on_the_bytes()
    {
        // S0's known-length read: one ReadAsync, trusted to fill the array.
        DownloadExercise singleRead = async (client, url, pool, maxBytes, received, token) =>
        {
            using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead, token);
            int length = (int)(response.Content.Headers.ContentLength ?? 1024 * 1024 + 7);
            byte[] array = pool.Rent(Math.Max(length, 1));
            try
            {
                using Stream body = await response.Content.ReadAsStreamAsync(token);
                int read = await body.ReadAsync(array.AsMemory(0, length), token);
                received(array.AsSpan(0, read));
                return read;
            }
            finally
            {
                pool.Return(array);
            }
        };

        var failure = await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => DownloadChecks.CheckAsync(singleRead, 1, None));
        Assert.Contains("received got", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_array_never_returned_fails_the_download_check()
    {
        var failure = await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => DownloadChecks.CheckAsync(Pooled(returnTimes: 0), 1, None));
        Assert.Contains("never returned", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_array_returned_twice_fails_the_download_check()
    {
        var failure = await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => DownloadChecks.CheckAsync(Pooled(returnTimes: 2), 1, None));
        Assert.Contains("not outstanding", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Handing_over_the_body_after_returning_its_array_fails_the_download_check_on_the_poison()
    {
        var failure = await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => DownloadChecks.CheckAsync(Pooled(returnTimes: 1, handOverAfterReturn: true), 1, None));
        Assert.Contains("differs", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Ignoring_the_limit_fails_the_download_check()
    {
        var failure = await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => DownloadChecks.CheckAsync(Pooled(returnTimes: 1, ignoreLimit: true), 1, None));
        Assert.Contains("was accepted", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task One_shared_buffer_passes_alone_and_fails_with_64_in_flight()
    {
        byte[] shared = new byte[8 * 1024 * 1024];
        DownloadExercise oneBuffer = async (client, url, pool, maxBytes, received, token) =>
        {
            using PooledBuffer body = await client.GetPooledAsync(url, maxBytes, pool, token);
            body.Span.CopyTo(shared);
            await Task.Yield(); // another download's copy lands here when 64 are in flight
            received(shared.AsSpan(0, body.Length));
            return body.Length;
        };

        await DownloadChecks.CheckAsync(oneBuffer, inFlight: 1, None);
        await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => DownloadChecks.CheckAsync(oneBuffer, inFlight: 64, None));
    }

    [Fact]
    public async Task The_read_loop_check_fails_a_single_read_and_passes_the_runtimes_ReadAtLeastAsync()
    {
        ReadLoopExercise single = (body, destination, token) => body.ReadAsync(destination, token).AsTask();
        var failure = await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => Exercise02.CheckAsync(single, None));
        Assert.Contains("a few bytes per read", failure.Message, StringComparison.Ordinal);

        // The runtime's own loop (Stream.ReadAtLeastAsync without throwing at the end) is the reference a learner's must match.
        ReadLoopExercise runtime = (body, destination, token) => body.ReadAtLeastAsync(destination, destination.Length, throwOnEndOfStream: false, token).AsTask();
        await Exercise02.CheckAsync(runtime, None);
    }

    [Fact]
    public async Task The_books_check_fails_a_buffered_body_and_an_undisposed_response_and_passes_a_stream()
    {
        // The default completion option: the body is buffered whole before GetAsync returns.
        BooksExercise buffered = async (client, url, token) =>
        {
            using HttpResponseMessage response = await client.GetAsync(url, token);
            return (await response.Content.ReadFromJsonAsync<Book[]>(token))!.Length;
        };
        Assert.Contains("buffered whole", (await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => Exercise03.CheckAsync(buffered, None))).Message, StringComparison.Ordinal);

        BooksExercise undisposed = async (client, url, token) =>
        {
            HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead, token);
            return (await JsonSerializer.DeserializeAsync<Book[]>(await response.Content.ReadAsStreamAsync(token), JsonSerializerOptions.Web, token))!.Length;
        };
        Assert.Contains("not disposed", (await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => Exercise03.CheckAsync(undisposed, None))).Message, StringComparison.Ordinal);

        BooksExercise streamed = async (client, url, token) =>
        {
            using HttpResponseMessage response = await client.GetAsync(url, HttpCompletionOption.ResponseHeadersRead, token);
            return (await JsonSerializer.DeserializeAsync<Book[]>(await response.Content.ReadAsStreamAsync(token), JsonSerializerOptions.Web, token))!.Length;
        };
        await Exercise03.CheckAsync(streamed, None);
    }

    [Fact]
    public async Task The_typed_client_check_fails_a_buffered_body_a_swallowed_404_and_wrong_books_and_passes_the_lease()
    {
        // Each typed client gets a client over the observing handler, as the factory would give it one.
        async Task<string> Check(Func<HttpClient, TypedBooksExercise> typedClient)
        {
            var observer = new ObservingHandler();
            using var client = new HttpClient(observer, disposeHandler: false);
            return await Exercise09.CheckAsync(() => typedClient(client), observer, None);
        }

        Func<HttpClient, TypedBooksExercise> buffered = http => async (url, token) =>
        {
            using HttpResponseMessage response = await http.GetAsync(url, token);
            response.EnsureSuccessStatusCode();
            return (await response.Content.ReadFromJsonAsync<Book[]>(PooledHttp.Content.PooledJson.Options, token))!;
        };
        Assert.Contains("buffered whole", (await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => Check(buffered))).Message, StringComparison.Ordinal);

        Func<HttpClient, TypedBooksExercise> swallowed = http => async (url, token) =>
        {
            using HttpResponseMessage response = await http.GetAsync(url, HttpCompletionOption.ResponseHeadersRead, token);
            if (!response.IsSuccessStatusCode)
            {
                return [];
            }

            using PooledBuffer body = await response.ReadPooledAsync(cancellationToken: token);
            return JsonSerializer.Deserialize<Book[]>(body.Span, PooledHttp.Content.PooledJson.Options)!;
        };
        Assert.Contains("404", (await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => Check(swallowed))).Message, StringComparison.Ordinal);

        Func<HttpClient, TypedBooksExercise> caseSensitive = http => async (url, token) =>
        {
            using PooledBuffer body = await http.GetPooledAsync(url, cancellationToken: token);
            return JsonSerializer.Deserialize<Book[]>(body.Span)!; // default options: camelCase names do not bind, every string is null
        };
        Assert.Contains("not the ones the server sent", (await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => Check(caseSensitive))).Message, StringComparison.Ordinal);

        Func<HttpClient, TypedBooksExercise> lease = http => async (url, token) =>
        {
            using PooledBuffer body = await http.GetPooledAsync(url, cancellationToken: token);
            return JsonSerializer.Deserialize<Book[]>(body.Span, PooledHttp.Content.PooledJson.Options)!;
        };
        Assert.Contains("2,500 books", await Check(lease), StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_post_check_fails_a_chunked_body_and_passes_one_with_a_length()
    {
        // JsonContent serializes as it sends: no length, so the runtime sends it chunked.
        PostExercise chunked = async (client, url, books, token) =>
        {
            using HttpResponseMessage response = await client.PostAsJsonAsync(url, books, token);
            return long.Parse(await response.Content.ReadAsStringAsync(token), System.Globalization.CultureInfo.InvariantCulture);
        };
        Assert.Contains("chunked", (await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => Exercise05.CheckAsync(chunked, None))).Message, StringComparison.Ordinal);

        PostExercise withLength = async (client, url, books, token) =>
        {
            using var content = new ByteArrayContent(JsonSerializer.SerializeToUtf8Bytes(books, JsonSerializerOptions.Web));
            using HttpResponseMessage response = await client.PostAsync(url, content, token);
            return long.Parse(await response.Content.ReadAsStringAsync(token), System.Globalization.CultureInfo.InvariantCulture);
        };
        await Exercise05.CheckAsync(withLength, None);
    }

    [Fact]
    public async Task The_http2_check_fails_a_default_request_and_passes_one_that_insists_on_http2()
    {
        RequestExercise byDefault = (url, content) => new HttpRequestMessage(HttpMethod.Post, url) { Content = content };
        Assert.Contains("HTTP/1.1", (await Assert.ThrowsAsync<ExerciseCheckFailedException>(() => Exercise06.CheckAsync(byDefault, None))).Message, StringComparison.Ordinal);

        RequestExercise exact = (url, content) => new HttpRequestMessage(HttpMethod.Post, url) { Content = content, Version = HttpVersion.Version20, VersionPolicy = HttpVersionPolicy.RequestVersionExact };
        await Exercise06.CheckAsync(exact, None);
    }

    [Fact]
    public void The_array_check_finds_the_threshold_the_runtime_reports()
    {
        // Search the runtime for the answer rather than trusting a number: the check must agree with GC.GetGeneration.
        int smallest = Enumerable.Range(80_000, 10_000).First(n => GC.GetGeneration(new byte[n]) == 2);
        Assert.Contains("born in Gen2", Exercise01.Check(smallest), StringComparison.Ordinal);
        Assert.Contains("too small", Assert.Throws<ExerciseCheckFailedException>(() => Exercise01.Check(smallest - 1)).Message, StringComparison.Ordinal);
        Assert.Contains("smaller still", Assert.Throws<ExerciseCheckFailedException>(() => Exercise01.Check(smallest + 1)).Message, StringComparison.Ordinal);
        Assert.Throws<NotImplementedException>(() => Exercise01.Check(0));
    }

    /// <summary>A correct pooled download with one mistake switched on.</summary>
    private static DownloadExercise Pooled(int returnTimes, bool handOverAfterReturn = false, bool ignoreLimit = false)
        => async (client, url, pool, maxBytes, received, token) =>
        {
            using PooledBuffer body = await client.GetPooledAsync(url, ignoreLimit ? int.MaxValue : maxBytes, ArrayPool<byte>.Shared, token);
            byte[] array = pool.Rent(Math.Max(body.Length, 1));
            body.Span.CopyTo(array);
            if (!handOverAfterReturn)
            {
                received(array.AsSpan(0, body.Length));
            }

            for (int i = 0; i < returnTimes; i++)
            {
                pool.Return(array);
            }

            if (handOverAfterReturn)
            {
                received(array.AsSpan(0, body.Length));
            }

            return body.Length;
        };
}
