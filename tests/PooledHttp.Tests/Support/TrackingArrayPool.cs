using System.Buffers;
using System.Runtime.CompilerServices;

namespace PooledHttp.Tests.Support;

/// <summary>
/// An <see cref="ArrayPool{T}"/> that remembers every array it handed out, so a test can prove that
/// each one came back exactly once and that nothing it never rented was returned to it. Like a real
/// pool it hands returned arrays out again, and it poisons them on return, so a use after return shows
/// up as wrong bytes.
/// </summary>
internal sealed class TrackingArrayPool : ArrayPool<byte>
{
    private readonly Lock _gate = new();
    private readonly HashSet<byte[]> _outstanding = new(ReferenceEqualityComparer.Instance);
    private readonly List<string> _violations = [];
    private readonly Dictionary<int, Stack<byte[]>> _free = [];

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

    /// <summary>The largest size anyone asked this pool for.</summary>
    public int LargestRequest { get; private set; }

    /// <summary>What a fresh array holds: a test must never pass because new memory happened to be zero.</summary>
    public const byte Fresh = 0xCD;

    /// <summary>What a returned array is filled with: code that reads an array after returning it reads this.</summary>
    public const byte Poison = 0xDD;

    public override byte[] Rent(int minimumLength)
    {
        if (minimumLength == 0)
        {
            return []; // as the shared pool does: nothing to track, nothing to return
        }

        int size = Math.Max(16, (int)BitOperations_RoundUp(minimumLength));
        byte[] array;
        lock (_gate)
        {
            Rents++;
            LargestRequest = Math.Max(LargestRequest, minimumLength);
            // Hand returned arrays out again, as a real pool does: a use after return then corrupts
            // another renter's bytes, or reads the poison, and a byte-for-byte check sees it.
            if (_free.TryGetValue(size, out Stack<byte[]>? free) && free.Count > 0)
            {
                array = free.Pop();
            }
            else
            {
                array = new byte[size];
                Array.Fill(array, Fresh);
            }

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
                return;
            }

            Array.Fill(array, Poison);
            if (!_free.TryGetValue(array.Length, out Stack<byte[]>? free))
            {
                _free[array.Length] = free = new Stack<byte[]>();
            }

            free.Push(array);
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
