using BenchmarkDotNet.Attributes;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Buffers;

namespace PooledHttp.Workshop.Exercising;

/// <summary>S0's known-length download (one rented array of the Content-Length) with the learner's <c>E02_ReadLoop.ReadAsync</c> filling it.</summary>
public class Exercise02Benchmark : ExerciseBenchmark
{
    private ReadLoopExercise _read = null!;
    private Uri _url = null!;

    /// <summary>The body size in bytes.</summary>
    [ParamsSource(nameof(SizeValues))]
    public int Size { get; set; }

    /// <summary>Always with a Content-Length: S0's known-length read needs one.</summary>
    [ParamsSource(nameof(FramingValues))]
    public Framing Framing { get; set; }

    /// <summary>Your loop in S0's download.</summary>
    [Benchmark]
    public async Task<int> Yours()
    {
        using HttpResponseMessage response = await Client.GetAsync(_url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
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
    protected override void PrepareExercise()
    {
        _read = LearnerCode.Bind<ReadLoopExercise>(Learner, "E02_ReadLoop", "ReadAsync");
        _url = BenchmarkServer.Bytes(Size, contentLength: true);
    }
}
