using BenchmarkDotNet.Attributes;
using PooledHttp.Buffers;
using PooledHttp.Workshop.Checks;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>S0's known-length download (one rented array of the Content-Length) with the learner's <c>E02_ReadLoop.ReadAsync</c> filling it.</summary>
/// <remarks>Always with a Content-Length: S0's known-length read needs one (the notebook's call asks for no other framing).</remarks>
public class Exercise02Benchmark : BodyExerciseBenchmark
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
    protected override void BindLearner() => _read = LearnerCode.Bind<ReadLoopExercise>(Learner, "E02_ReadLoop", "ReadAsync");
}
