using System.Buffers;
using System.Runtime.CompilerServices;

namespace PooledHttp.Tests.Support;

/// <summary>
/// An <see cref="ArrayPool{T}"/> that remembers every array it handed out, so a test can prove that
/// each one came back exactly once and that nothing it never rented was returned to it.
/// </summary>
internal sealed class TrackingArrayPool : ArrayPool<byte>
{
    private readonly Lock _gate = new();
    private readonly HashSet<byte[]> _outstanding = new(ReferenceEqualityComparer.Instance);
    private readonly List<string> _violations = [];

    public int Rents { get; private set; }

    public int Returns { get; private set; }

    public int Outstanding
    {
        get
        {
            lock (_gate)
            {
                return _outstanding.Count;
            }
        }
    }

    public override byte[] Rent(int minimumLength)
    {
        if (minimumLength == 0)
        {
            return []; // as the shared pool does: nothing to track, nothing to return
        }

        // Fresh arrays every time: a test must never pass because a stale array happened to hold the right bytes.
        var array = new byte[Math.Max(16, (int)BitOperations_RoundUp(minimumLength))];
        Array.Fill(array, (byte)0xCD);
        lock (_gate)
        {
            Rents++;
            _outstanding.Add(array);
        }

        return array;
    }

    public override void Return(byte[] array, bool clearArray = false)
    {
        lock (_gate)
        {
            Returns++;
            if (!_outstanding.Remove(array))
            {
                _violations.Add($"returned an array of {array.Length} bytes that was not outstanding (returned twice, or never rented here)");
            }
        }
    }

    /// <summary>Fails unless every rented array came back exactly once.</summary>
    public void AssertBalanced([CallerMemberName] string? test = null)
    {
        lock (_gate)
        {
            Assert.True(_violations.Count == 0, $"{test}: {string.Join("; ", _violations)}");
            Assert.True(_outstanding.Count == 0, $"{test}: {_outstanding.Count} of {Rents} rented arrays were never returned");
            Assert.Equal(Rents, Returns);
        }
    }

    // Mimic the shared pool's power-of-two buckets, so code that relies on the spare tail is exercised.
    private static uint BitOperations_RoundUp(int value) => System.Numerics.BitOperations.RoundUpToPowerOf2((uint)value);
}
