using System.Buffers;
using PooledHttp.Buffers;

namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 07's exercise: size a pool for 64 overlapping downloads of 8 MiB without a Content-Length.</summary>
public sealed class Exercise07() : Exercise("E07", CreatePool.ClassName, "07-under-load",
    "size a pool for 64 overlapping downloads of 8 MiB")
{
    /// <summary>Downloads in flight at once, in the check and the measurement: the chapter's batches (<see cref="UnderLoad"/>).</summary>
    private const int InFlight = UnderLoad.InFlight;

    /// <summary>The body each download reads: without a Content-Length each ends in a 16 MiB array on the default pool, 64 of them past its budget.</summary>
    private const int BodySize = 8 * 1024 * 1024;

    /// <summary>The largest budget the check accepts, as a multiple of the bodies in flight: more is memory kept "just in case".</summary>
    private const int MaxBudgetPerBody = 4;

    /// <summary>
    /// The most a download may allocate at steady state: above the runtime's own few KiB per paced download, far
    /// below the 128 KiB per download that one 8 MiB array missed in a batch of 64 costs (docs/measurements.md).
    /// </summary>
    private const long TargetPerDownload = 16 * 1024;

    /// <summary>The learner's pool factory (bodies in flight, body size), bound by the check and the benchmark.</summary>
    private static readonly LearnerMethod<Func<int, int, ArrayPool<byte>>> CreatePool = new("E07_SizeThePool", "CreatePool");

    /// <inheritdoc />
    /// <remarks>Bytes alone: the Gen2 column is a sample of one iteration that holds a batch or two
    /// (<see cref="MeasuredRow.Gen2"/>), which can show none even for the naive read.</remarks>
    public override string? Goal => $"at most {ByteUnits.Format(TargetPerDownload)} allocated per download";

    /// <inheritdoc />
    public override bool Meets(MeasuredRow row)
    {
        ArgumentNullException.ThrowIfNull(row);
        return row.AllocatedBytes <= TargetPerDownload * InFlight;
    }

    /// <summary>Checks the learner's <c>E07_SizeThePool.CreatePool</c>, then measures batches of 64 paced downloads on it from <paramref name="server"/>.</summary>
    /// <param name="server">The notebook's server.</param>
    public static ExerciseResult Run(LocalServer server)
    {
        ArgumentNullException.ThrowIfNull(server);
        return ExerciseRunner.Run(new Exercise07(), server.Context, typeof(Benchmark), new Dictionary<string, object[]> { [nameof(Benchmark.Size)] = [BodySize] });
    }

    /// <inheritdoc />
    public override Task<ExerciseResult> RunAloneAsync() => OnLocalServerAsync(server => Run(server));

    /// <summary>The learner's pool holds 64 overlapping downloads of 8 MiB.</summary>
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => CheckPoolAsync(CreatePool.Bind(learner), cancellationToken);

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
        // reader holds on a warm BoundedArrayPool), twice over, with a full collection between. What a pool keeps
        // through one is its budget; an array it let go of past the budget it would take back while the GC has not
        // collected it (BoundedArrayPool, "Past the budget"), so only what survives a full collection is the budget's.
        // The second round must get back only arrays the first round returned: then the pool holds the load.
        WeakReference<byte[]>[] first = HoldTheLoadWeakly(pool);
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        GCMemoryInfo memory = GC.GetGCMemoryInfo();
        if (memory.MemoryLoadBytes >= memory.HighMemoryLoadThresholdBytes * 0.9)
        {
            // A BoundedArrayPool drops every free array at a full collection when memory is short: no budget could pass.
            throw new ExerciseCheckFailedException($"The machine's memory is nearly full ({ByteUnits.Format(memory.MemoryLoadBytes)} in use), so a full collection empties every pool and this check cannot judge yours. Close what you can and run it again.");
        }

        var kept = new HashSet<byte[]>(first.Select(w => w.TryGetTarget(out byte[]? a) ? a : null).OfType<byte[]>(), ReferenceEqualityComparer.Instance);
        byte[][] fresh = [.. HoldTheLoad(pool).Where(a => !kept.Contains(a))];
        if (fresh.Length > 0)
        {
            throw new ExerciseCheckFailedException($"The second time {InFlight} reads of {ByteUnits.Format(BodySize)} held their arrays at once, after a full collection, {fresh.Length} rents found no free array and allocated one ({ByteUnits.Format(fresh.Sum(a => (long)a.Length))} in all): a budget of {ByteUnits.Format(bounded.MaxRetainedBytes)} does not hold {InFlight} bodies of {ByteUnits.Format(BodySize)}.");
        }

        return $"{InFlight} overlapping {ByteUnits.Format(BodySize)} downloads on your pool, bytes exact; {InFlight} reads holding their arrays at once, twice, the second time from the pool alone; and the budget ({ByteUnits.Format(bounded.MaxRetainedBytes)}) stays within {MaxBudgetPerBody} times the bodies in flight.";
    }

    /// <summary>Rents the arrays <see cref="InFlight"/> reads hold at once, one body each, and returns them all.</summary>
    private static byte[][] HoldTheLoad(ArrayPool<byte> pool)
    {
        byte[][] held = [.. Enumerable.Range(0, InFlight).Select(_ => pool.Rent(BodySize))];
        foreach (byte[] array in held)
        {
            pool.Return(array);
        }

        return held;
    }

    /// <summary><see cref="HoldTheLoad"/>, naming the arrays weakly: nothing of this call keeps one alive through a collection.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static WeakReference<byte[]>[] HoldTheLoadWeakly(ArrayPool<byte> pool) => [.. HoldTheLoad(pool).Select(a => new WeakReference<byte[]>(a))];

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

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(UnderLoad) && r.PayloadBytes == BodySize && r.RuntimeMajor == Environment.Version.Major);

    /// <inheritdoc />
    internal override Plotly.NET.GenericChart Chart(string title, IEnumerable<MeasuredRow> rows)
    {
        List<MeasuredRow> all = rows.ToList();
        return Charts.Charts.Grouped(title, "strategy", "KiB allocated per download", [.. all.Select(Label)], new Dictionary<string, double[]>
        {
            ["KiB per download"] = [.. all.Select(r => r.AllocatedBytes / (double)InFlight / 1024)],
        });
    }

    /// <summary>One operation: 64 paced downloads of 8 MiB without a Content-Length at once, on the pool the learner's <c>CreatePool</c> returned.</summary>
    public class Benchmark : ExerciseBenchmark
    {
        /// <summary>
        /// Batches run on the pool before BenchmarkDotNet runs any. How many of a batch's 64 bodies hold their arrays at the
        /// same moment depends on scheduling, and the pool only has as many arrays as the busiest batch so far needed: the
        /// batch BenchmarkDotNet counts bytes in comes after about eight others (one per iteration in the default profile),
        /// and twice in test runs it reached a peak none of them had, so the worked solution's pool allocated one 8 MiB
        /// array (8.22 MiB per batch). Twelve more make that rarer, not impossible. A pool whose budget cannot hold the
        /// batch lets arrays go, and BenchmarkDotNet's full collection before every iteration takes them: it misses in every iteration, however many batches come first. Chapter 07's own rows
        /// (<see cref="UnderLoad"/>) have no such warm-up: the reference run's sized pool missed nothing there.
        /// </summary>
        private const int WarmUpBatches = 12;

        private Func<Task<int>> _one = null!;

        /// <summary>The body size (named as in <see cref="UnderLoad"/>, so the rows line up).</summary>
        public int Size { get; set; }

        /// <summary>A batch of downloads on your pool.</summary>
        [Benchmark]
        public Task<long> Yours() => Downloads.BatchAsync(InFlight, _one);

        /// <inheritdoc />
        protected override void PrepareExercise()
        {
            ArrayPool<byte> pool = CreatePool.Bind(Learner)(InFlight, Size);
            Uri url = BenchmarkServer.PacedBytes(Size, contentLength: false, Pace.Network);
            _one = () => Downloads.PooledReadAsync(Client, url, pool); // built once: no delegate per batch
            for (int batch = 0; batch < WarmUpBatches; batch++)
            {
                Downloads.BatchAsync(InFlight, _one).GetAwaiter().GetResult();
            }
        }
    }
}
