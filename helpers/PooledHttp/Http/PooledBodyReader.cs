using System.Buffers;
using System.Runtime.CompilerServices;
using PooledHttp.Buffers;

namespace PooledHttp.Http;

/// <summary>
/// Reads a whole body into one pooled array. This is the corrected form of the two pooled reads in
/// "Removing Memory Allocations in HTTP Requests Using ArrayPool&lt;T&gt;" (xaml.dev): it reads until the
/// body is complete instead of trusting one <c>ReadAsync</c>, exposes only the body's bytes and not
/// the rented array's tail, and copes with a body of unknown length.
/// </summary>
/// <remarks>
/// <para>Every path returns what it rented: on success the array moves into the returned
/// <see cref="PooledBuffer"/>, which the caller then owns; on any exception (short body, long body,
/// limit, cancellation, a dropped connection) it goes back to the pool before the exception leaves.</para>
/// <para>A body of unknown length is copied with the stream's own <see cref="Stream.CopyToAsync(Stream, int, CancellationToken)"/>:
/// the runtime's HTTP content streams copy straight out of the connection's buffer; another stream may use a
/// copy buffer of its own (<see cref="Stream"/>'s default rents one from <see cref="ArrayPool{T}.Shared"/>).
/// Everything that holds the body comes from the given pool.</para>
/// <para><b>Awaiting.</b> Await the returned <see cref="ValueTask{TResult}"/> once, directly, or turn it into a task once with
/// <see cref="ValueTask{TResult}.AsTask"/>. A read that has to wait for the network is backed by a <see cref="Task{TResult}"/>
/// of its own, so a caller that breaks the rule (blocks with <c>.Result</c> while the read is pending, awaits twice) gets
/// what it would get from a <see cref="Task{TResult}"/>, a blocking wait and the same result, and reaches nobody else's read.
/// The state machines inside are pooled (<see cref="PoolingAsyncValueTaskMethodBuilder{TResult}"/>) and awaited only
/// by the library itself, exactly once; the task costs about 90 bytes per read that waits (the measured figures
/// are in the README).</para>
/// </remarks>
public static class PooledBodyReader
{
    /// <summary>What to rent first when the length is unknown: big enough that small bodies never
    /// grow, small enough that a small body does not tie up a large array.</summary>
    private const int InitialUnknownLengthCapacity = 16 * 1024;

    /// <summary>
    /// The most asked of the body stream in one read. A larger request drains everything the socket holds, so
    /// the next read finds it empty and has to wait, and a wait is where the runtime's content stream allocates.
    /// </summary>
    public const int ReadSize = 16 * 1024;

    /// <summary>
    /// How much a body of unknown length grows its array each time it fills: fourfold, so a 1 MiB body passes
    /// through 16, 64 and 256 KiB (a third of its size in all) where doubling would pass through six arrays
    /// as large as the body together: every one of them is a pool array, and bodies in flight hold them at once.
    /// </summary>
    private const int UnknownLengthGrowth = 4;

    /// <summary>
    /// The most rented on the word of a Content-Length alone, before any body byte arrives. A declared
    /// length is a claim: a server that declares 2 GB and sends 10 bytes must not cost 2 GB. Past this the
    /// array grows as bytes arrive. The runtime's own buffering caps its up-front array the same way
    /// (16 MiB, dotnet/runtime PR #109642).
    /// </summary>
    public const int MaxUpFrontRent = 16 * 1024 * 1024;

    /// <summary>
    /// The default limit: 64 MiB, the largest array <see cref="BodyPool"/> keeps. Past it, a pooled read
    /// gains nothing over an allocation and holds that much memory per request in flight; a service that
    /// really takes bodies that large should stream them, or pass a larger limit on purpose.
    /// </summary>
    public const int DefaultMaxBytes = BodyPool.MaxArrayLength;

    /// <summary>
    /// Reads <paramref name="body"/> to its end into a pooled buffer.
    /// </summary>
    /// <param name="body">The body stream. It is read, not disposed.</param>
    /// <param name="declaredLength">The Content-Length when the sender gave one: the body must be exactly that long. It does not
    /// stop the read: the stream is read to its end and a byte past this length fails the read, so the stream must end
    /// with the body (a response's content stream does; a socket or a pipe carrying more messages does not).</param>
    /// <param name="maxBytes">The largest body accepted (<see cref="DefaultMaxBytes"/> unless given); more throws <see cref="PayloadTooLargeException"/>.</param>
    /// <param name="pool">The pool to rent from; <see cref="BodyPool.Shared"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Cancels the read; the rented array is returned first.</param>
    /// <returns>A buffer holding exactly the body; the caller must dispose it.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="body"/> is <see langword="null"/>.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxBytes"/> or <paramref name="declaredLength"/> is negative.</exception>
    /// <exception cref="PayloadTooLargeException">The body, or its declared length, is over <paramref name="maxBytes"/>
    /// (an <see cref="HttpRequestException"/> with <see cref="HttpRequestError.ConfigurationLimitExceeded"/>).</exception>
    /// <exception cref="HttpRequestException">The body is shorter than <paramref name="declaredLength"/>
    /// (<see cref="HttpRequestError.ResponseEnded"/>) or longer (<see cref="HttpRequestError.InvalidResponse"/>: the runtime's
    /// HTTP/1.1 content stream never yields a byte past the Content-Length, its HTTP/2 stream does not check either way,
    /// so there both are caught here where <c>GetByteArrayAsync</c> returns the body as if it were whole), or reading
    /// it failed: the stream's <see cref="IOException"/> or <see cref="ObjectDisposedException"/> is the inner exception and
    /// the error is the inner <see cref="HttpIOException"/>'s, <see cref="HttpRequestError.Unknown"/> otherwise, as
    /// <see cref="HttpContent.ReadAsByteArrayAsync()"/> reports it.</exception>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
    /// <remarks>Argument errors throw at the call; every other failure comes through the returned task. The stream is read from
    /// where it stands to its end: bytes read from it before the call are not part of the result, so pass a stream nobody has
    /// read from. (<see cref="PooledHttpClientExtensions.ReadPooledAsync(HttpResponseMessage, int, ArrayPool{byte}?, CancellationToken)"/>
    /// checks that for a response's body; a bare stream cannot tell.)</remarks>
    public static ValueTask<PooledBuffer> ReadAsync(Stream body, long? declaredLength, int maxBytes = DefaultMaxBytes, ArrayPool<byte>? pool = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(body);
        ArgumentOutOfRangeException.ThrowIfNegative(maxBytes);
        if (declaredLength is { } given)
        {
            ArgumentOutOfRangeException.ThrowIfNegative(given, nameof(declaredLength));
        }

        return Detached(ReadCoreAsync(body, declaredLength, maxBytes, pool ?? BodyPool.Shared, cancellationToken));
    }

    /// <summary>
    /// Hands a caller a pooled state machine's result in a form it cannot misuse: the value when the read is already done,
    /// otherwise a task that awaits the pooled one exactly once. A caller that blocks on a pending pooled
    /// <see cref="ValueTask{TResult}"/> (<c>.Result</c>) makes its box go back to the pool while the read still runs; the next
    /// read on that thread then takes over the same box, and both fail (dotnet/runtime's
    /// <c>PoolingAsyncValueTaskMethodBuilder</c> returns the box in <c>GetResult</c>, whatever the state).
    /// </summary>
    internal static ValueTask<T> Detached<T>(ValueTask<T> pooled)
        => pooled.IsCompletedSuccessfully ? new ValueTask<T>(pooled.Result) : new ValueTask<T>(pooled.AsTask());

    /// <summary><see cref="ReadAsync"/> after its argument checks, as a pooled <see cref="ValueTask{TResult}"/>: for the library's own awaits only.</summary>
    internal static ValueTask<PooledBuffer> ReadCoreAsync(Stream body, long? declaredLength, int maxBytes, ArrayPool<byte> pool, CancellationToken cancellationToken)
    {
        if (declaredLength is { } declared)
        {
            if (declared > maxBytes)
            {
                return ValueTask.FromException<PooledBuffer>(new PayloadTooLargeException(maxBytes, declared));
            }

            return ReadKnownLengthAsync(body, (int)declared, pool, cancellationToken);
        }

        return ReadUnknownLengthAsync(body, maxBytes, pool, cancellationToken);
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<PooledBuffer> ReadKnownLengthAsync(Stream body, int length, ArrayPool<byte> pool, CancellationToken cancellationToken)
    {
        byte[]? array = length == 0 ? [] : pool.Rent(Math.Min(length, MaxUpFrontRent));
        try
        {
            int filled = 0;
            while (filled < length)
            {
                if (filled == array.Length)
                {
                    // Past the up-front cap, and the bytes keep coming: double, never past the declared length.
                    byte[] bigger = pool.Rent((int)Math.Min(length, 2L * array.Length));
                    array.AsSpan(0, filled).CopyTo(bigger);
                    pool.Return(array);
                    array = bigger;
                }

                int want = Math.Min(ReadSize, Math.Min(length, array.Length) - filled);
                int read = await body.ReadAsync(array.AsMemory(filled, want), cancellationToken).ConfigureAwait(false);
                if (read == 0)
                {
                    throw BodyFailure.Ended($"The body ended after {filled:N0} of the {length:N0} bytes its Content-Length declared.");
                }

                filled += read;
            }

            // A sender that writes more than it declared is broken; don't pass its body off as whole.
            bool more = array.Length > length
                ? await body.ReadAsync(array.AsMemory(length, 1), cancellationToken).ConfigureAwait(false) > 0
                : await HasMoreAsync(body, pool, cancellationToken).ConfigureAwait(false);
            if (more)
            {
                throw BodyFailure.Invalid($"The body is longer than the {length:N0} bytes its Content-Length declared.");
            }

            var lease = new PooledBuffer(length == 0 ? null : pool, array, length);
            array = null;
            return lease;
        }
        catch (Exception e) when (BodyFailure.IsStreamFailure(e))
        {
            throw BodyFailure.StreamFailed(e);
        }
        finally
        {
            if (array is { Length: > 0 })
            {
                pool.Return(array);
            }
        }
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<PooledBuffer> ReadUnknownLengthAsync(Stream body, int maxBytes, ArrayPool<byte> pool, CancellationToken cancellationToken)
    {
        // A body of unknown length grows through smaller arrays before it fits. A pool made for bodies of a known
        // typical size (BodyPool.Create) starts every such read in an array of that size, as a Content-Length
        // would; any other pool starts small, so that a small body never holds a large array for its lease.
        using PooledBufferStream buffer = UnknownLengthSink(maxBytes, pool);
        try
        {
            // CopyToAsync rather than a read loop: the runtime's chunked and read-to-end content streams copy
            // straight out of the connection's buffer, with one async operation per body instead of one per
            // read that has to wait. The buffer refuses a byte past the limit (PayloadTooLargeException), and
            // a body that ends exactly at a power of two never grows, since no write comes after it.
            await body.CopyToAsync(buffer, ReadSize, cancellationToken).ConfigureAwait(false);

            // Ownership moves to the lease; the using above then disposes an empty stream.
            return buffer.DetachBuffer();
        }
        catch (BufferLimitExceededException)
        {
            throw new PayloadTooLargeException(maxBytes);
        }
        catch (Exception e) when (BodyFailure.IsStreamFailure(e))
        {
            throw BodyFailure.StreamFailed(e);
        }
    }

    /// <summary>
    /// Reads a response's content whole through <see cref="HttpContent.CopyToAsync(Stream, CancellationToken)"/>, the path
    /// <see cref="HttpContent.ReadAsByteArrayAsync()"/> takes: a content whose stream was already handed out fails as it fails
    /// there (<see cref="InvalidOperationException"/>), a buffered content gives its whole buffer, a disposed one throws
    /// <see cref="ObjectDisposedException"/>, and the stream's failures come wrapped as the runtime wraps them.
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    internal static async ValueTask<PooledBuffer> ReadContentAsync(HttpContent content, long? declaredLength, int maxBytes, ArrayPool<byte> pool, CancellationToken cancellationToken)
    {
        PooledBufferStream sink;
        if (declaredLength is { } declared)
        {
            // The declared length is the sink's limit: a byte past it fails the write, and the read as too long.
            int length = checked((int)declared);
            sink = length == 0 ? new PooledBufferStream(0) : new PooledBufferStream(length, pool.Rent(Math.Min(length, MaxUpFrontRent)), pool);
        }
        else
        {
            sink = UnknownLengthSink(maxBytes, pool);
        }

        using (sink)
        {
            try
            {
                await content.CopyToAsync(sink, cancellationToken).ConfigureAwait(false);
            }
            catch (BufferLimitExceededException)
            {
                throw declaredLength is { } length
                    ? BodyFailure.Invalid($"The body is longer than the {length:N0} bytes its Content-Length declared.")
                    : new PayloadTooLargeException(maxBytes);
            }

            if (declaredLength is { } expected && sink.Length != expected)
            {
                throw BodyFailure.Ended($"The body ended after {sink.Length:N0} of the {expected:N0} bytes its Content-Length declared.");
            }

            return sink.DetachBuffer();
        }
    }

    /// <summary>Where a body of unknown length is collected: see <see cref="ReadUnknownLengthAsync"/>.</summary>
    private static PooledBufferStream UnknownLengthSink(int maxBytes, ArrayPool<byte> pool)
    {
        int initial = Math.Min(InitialUnknownLengthCapacity, maxBytes);
        byte[]? warm = pool is BoundedArrayPool { TypicalBodySize: var typical } && typical > initial
            ? pool.Rent(Math.Min(typical, maxBytes))
            : null;
        return warm is null
            ? new PooledBufferStream(maxBytes, initial, pool) { GrowthFactor = UnknownLengthGrowth }
            : new PooledBufferStream(maxBytes, warm, pool) { GrowthFactor = UnknownLengthGrowth };
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<bool> HasMoreAsync(Stream body, ArrayPool<byte> pool, CancellationToken cancellationToken)
    {
        byte[] probe = pool.Rent(1);
        try
        {
            return await body.ReadAsync(probe.AsMemory(0, 1), cancellationToken).ConfigureAwait(false) > 0;
        }
        finally
        {
            pool.Return(probe);
        }
    }
}
