using System.Buffers;
using System.Reflection;
using PooledHttp.Buffers;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Checks;

/// <summary>Chapter 07's check: the pool the learner's <c>E07_SizeThePool.CreatePool</c> makes holds 64 overlapping downloads of 8 MiB.</summary>
internal sealed class Exercise07Check() : LearnerCheck("E07", "E07_SizeThePool")
{
    /// <summary>Downloads in flight at once, in the check and the measurement.</summary>
    internal const int InFlight = 64;

    /// <summary>The body each download reads: without a Content-Length each ends in a 16 MiB array on the default pool, 64 of them past its budget.</summary>
    internal const int BodySize = 8 * 1024 * 1024;

    /// <summary>The largest budget the check accepts, as a multiple of the bodies in flight: more is memory kept "just in case".</summary>
    private const int MaxBudgetPerBody = 4;

    /// <inheritdoc />
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => CheckPoolAsync(LearnerCode.Bind<Func<int, int, ArrayPool<byte>>>(learner, ClassName, "CreatePool"), cancellationToken);

    /// <summary>The check itself, on whatever makes the pool: the tests hand it known mistakes.</summary>
    internal static async Task<string> CheckPoolAsync(Func<int, int, ArrayPool<byte>> create, CancellationToken cancellationToken)
    {
        ArrayPool<byte> pool = create(InFlight, BodySize);
        if (pool is not BoundedArrayPool bounded)
        {
            throw new ExerciseCheckFailedException($"CreatePool returned a {pool?.GetType().Name ?? "null"}: return a BoundedArrayPool, whose memory has a ceiling you set. ArrayPool<byte>.Shared would stop allocating too, by keeping whatever it likes (section 6 showed how much).");
        }

        long bodies = (long)InFlight * BodySize;
        if (bounded.MaxRetainedBytes > MaxBudgetPerBody * bodies)
        {
            throw new ExerciseCheckFailedException($"A budget of {ByteUnits.Format(bounded.MaxRetainedBytes)} is more than {MaxBudgetPerBody} times the {ByteUnits.Format(bodies)} in flight: that is memory kept for a load that never comes. Size it from the load.");
        }

        if (bounded.MaxArrayLength < BodySize)
        {
            throw new ExerciseCheckFailedException($"The pool keeps arrays up to {ByteUnits.Format(bounded.MaxArrayLength)}, smaller than a {ByteUnits.Format(BodySize)} body: every body would be allocated.");
        }

        // The bytes: 64 chunked bodies, each spread over 16 writes so that they really overlap, read on your pool.
        await using (LocalServer server = LocalServer.Start())
        using (var client = new HttpClient())
        {
            await RoundAsync(client, server.PacedBytesUrl(BodySize, contentLength: false, Pace.Network), pool, cancellationToken).ConfigureAwait(false);
        }

        // The budget: what 64 such reads hold once the pool is warm (each its body's array, as the library's
        // reader holds on a warm BoundedArrayPool), twice over. The second round must get back only arrays the
        // first round returned: then the pool holds the load.
        var first = new HashSet<byte[]>(ReferenceEqualityComparer.Instance);
        HoldTheLoad(pool, first);
        var second = new HashSet<byte[]>(ReferenceEqualityComparer.Instance);
        HoldTheLoad(pool, second);
        byte[][] fresh = [.. second.Where(a => !first.Contains(a))];
        if (fresh.Length > 0)
        {
            throw new ExerciseCheckFailedException($"The second time {InFlight} reads of {ByteUnits.Format(BodySize)} held their arrays at once, {fresh.Length} rents found no free array and allocated one ({ByteUnits.Format(fresh.Sum(a => (long)a.Length))} in all): a budget of {ByteUnits.Format(bounded.MaxRetainedBytes)} does not hold {InFlight} bodies of {ByteUnits.Format(BodySize)}.");
        }

        return $"{InFlight} overlapping {ByteUnits.Format(BodySize)} downloads on your pool, bytes exact; {InFlight} reads holding their arrays at once, twice, the second time from the pool alone; and the budget ({ByteUnits.Format(bounded.MaxRetainedBytes)}) stays within {MaxBudgetPerBody} times the bodies in flight.";
    }

    /// <summary>Rents the arrays <see cref="InFlight"/> reads hold at once, one body each, and returns them all.</summary>
    private static void HoldTheLoad(ArrayPool<byte> pool, HashSet<byte[]> seen)
    {
        byte[][] held = [.. Enumerable.Range(0, InFlight).Select(_ => pool.Rent(BodySize))];
        foreach (byte[] array in held)
        {
            seen.Add(array);
            pool.Return(array);
        }
    }

    private static async Task RoundAsync(HttpClient client, Uri url, ArrayPool<byte> pool, CancellationToken cancellationToken)
    {
        await Task.WhenAll(Enumerable.Range(0, InFlight).Select(async _ =>
        {
            using PooledBuffer body = await Http.PooledHttpClientExtensions.GetPooledAsync(client, url, pool: pool, cancellationToken: cancellationToken).ConfigureAwait(false);
            if (body.Length != BodySize || Payload.FirstMismatch(body.Span) is var wrong and >= 0)
            {
                throw new ExerciseCheckFailedException($"A download came back wrong ({body.Length:N0} bytes): the pool handed out an array someone else was still using.");
            }
        })).ConfigureAwait(false);
    }
}
