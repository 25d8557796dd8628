using System.Reflection;
using PooledHttp.Testing;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Checks;

/// <summary>Chapter 02's check: the learner's <c>E02_ReadLoop.ReadAsync</c> fills the destination however the body arrives.</summary>
internal sealed class Exercise02Check() : LearnerCheck("E02", "E02_ReadLoop")
{
    /// <inheritdoc />
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => CheckAsync(LearnerCode.Bind<ReadLoopExercise>(learner, ClassName, "ReadAsync"), cancellationToken);

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
}
