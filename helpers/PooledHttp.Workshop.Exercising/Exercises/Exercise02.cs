using PooledHttp.Buffers;
using PooledHttp.Testing;

namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 02's exercise: the read loop S0's single <c>ReadAsync</c> should have been.</summary>
public sealed class Exercise02() : Exercise("E02", ReadLoop.ClassName, "02-the-5mb-download",
    "write the read loop S0's single ReadAsync should have been")
{
    /// <summary>The learner's read loop, bound by the check and the benchmark.</summary>
    private static readonly LearnerMethod<ReadLoopExercise> ReadLoop = new("E02_ReadLoop", "ReadAsync");

    /// <summary>
    /// Checks the learner's <c>E02_ReadLoop.ReadAsync</c>, then measures S0's known-length download with
    /// it: a Content-Length, one rented array of that length, the learner's loop filling it.
    /// </summary>
    /// <param name="server">The notebook's server.</param>
    /// <param name="size">The body size to measure, in bytes.</param>
    public static ExerciseResult Run(LocalServer server, int size = 1024 * 1024)
    {
        ArgumentNullException.ThrowIfNull(server);
        return ExerciseRunner.Run(new Exercise02(), server.Context, typeof(Benchmark), new Dictionary<string, object[]>
        {
            [nameof(Benchmark.Size)] = [size],
            [nameof(Benchmark.Framing)] = [Framing.ContentLength],
        });
    }

    /// <inheritdoc />
    public override Task<ExerciseResult> RunAloneAsync() => OnLocalServerAsync(server => Run(server));

    /// <summary>The learner's loop fills the destination however the body arrives.</summary>
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => CheckAsync(ReadLoop.Bind(learner), cancellationToken);

    /// <summary>The check itself, for any read loop: the tests hand it known-bad loops too.</summary>
    internal static async Task<string> CheckAsync(ReadLoopExercise read, CancellationToken cancellationToken)
    {
        await TrickleAsync(read, body: 100_003, destination: 100_003, "a body that arrives a few bytes per read", cancellationToken).ConfigureAwait(false);
        await TrickleAsync(read, body: 1_000, destination: 4_096, "a body that ends before the destination is full", cancellationToken).ConfigureAwait(false);
        await TrickleAsync(read, body: 5_000, destination: 1_000, "a body longer than the destination", cancellationToken).ConfigureAwait(false);
        await TrickleAsync(read, body: 10, destination: 0, "an empty destination", cancellationToken).ConfigureAwait(false);

        await using LocalServer server = LocalServer.Start();
        using var client = new HttpClient();
        const int Size = 1024 * 1024 + 7;
        using HttpResponseMessage response = await client.GetAsync(server.BytesUrl(Size, contentLength: true, writes: 64), HttpCompletionOption.ResponseHeadersRead, cancellationToken).ConfigureAwait(false);
        await using Stream stream = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
        byte[] array = new byte[Size];
        int filled = await read(stream, array, cancellationToken).ConfigureAwait(false);
        Expect(filled == Size && Payload.FirstMismatch(array) < 0, $"The local server's {Size:N0} B in 64 writes: read {filled:N0} B{(filled == Size ? $", but byte {Payload.FirstMismatch(array):N0} is wrong" : string.Empty)}.");
        return "Fills the destination however few bytes each read returns; stops when the body ends or the destination is full, and reads no further; "
            + $"and reads the local server's {Size:N0} B, sent in 64 writes, byte for byte.";
    }

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(NaiveDownload) && SameCase(r, yours));

    /// <inheritdoc />
    internal override string Label(MeasuredRow row) => row.Strategy == ExerciseBenchmark.Strategy ? "S0's known length, your loop" : row.Label;

    private static async Task TrickleAsync(ReadLoopExercise read, int body, int destination, string what, CancellationToken cancellationToken)
    {
        var stream = new TrickleStream(Payload.Get(body), maxPerRead: 7);
        byte[] array = new byte[destination];
        Array.Fill(array, TrackingArrayPool.Fresh);
        int filled = await read(stream, array, cancellationToken).ConfigureAwait(false);
        int expected = Math.Min(body, destination);
        Expect(filled == expected, $"{what} ({body:N0} B into {destination:N0} B): returned {filled:N0}, expected {expected:N0}.");
        Expect(stream.Position == expected, $"{what}: read {stream.Position:N0} B from the stream for a destination of {destination:N0} B. Read no further than the destination.");
        int wrong = Payload.FirstMismatch(array.AsSpan(0, filled));
        Expect(wrong < 0, $"{what}: byte {wrong:N0} is wrong. Does each read go after the bytes already read (destination[filled..])?");
    }

    private static void Expect(bool condition, string failure)
    {
        if (!condition)
        {
            throw new ExerciseCheckFailedException(failure);
        }
    }

    /// <summary>S0's known-length download (one rented array of the Content-Length) with the learner's loop filling it.</summary>
    /// <remarks>Always with a Content-Length: S0's known-length read needs one (the notebook's call asks for no other framing).</remarks>
    public class Benchmark : BodyExerciseBenchmark
    {
        private ReadLoopExercise _read = null!;

        /// <summary>Your loop in S0's download.</summary>
        [Benchmark]
        public async Task<int> Yours()
        {
            using HttpResponseMessage response = await Client.GetAsync(Url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
            response.EnsureSuccessStatusCode();
            int length = checked((int)(response.Content.Headers.ContentLength ?? throw new InvalidOperationException("No Content-Length.")));
            byte[] array = BodyPool.Shared.Rent(length);
            try
            {
                using Stream body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
                int read = await _read(body, array.AsMemory(0, length), CancellationToken.None).ConfigureAwait(false);
                return read == length ? read : throw new InvalidOperationException($"Read {read} of {length} bytes.");
            }
            finally
            {
                BodyPool.Shared.Return(array);
            }
        }

        /// <inheritdoc />
        protected override void BindLearner() => _read = ReadLoop.Bind(Learner);
    }
}
