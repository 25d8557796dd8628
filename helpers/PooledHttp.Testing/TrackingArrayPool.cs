using System.Buffers;
using System.Numerics;

namespace PooledHttp.Testing;

/// <summary>
/// An <see cref="ArrayPool{T}"/> that remembers every array it handed out, so a check can prove that
/// each one came back exactly once and that nothing it never rented was returned to it. Like a real
/// pool it hands returned arrays out again, and it poisons them on return, so a use after return
/// shows up as wrong bytes.
/// </summary>
/// <remarks>Buckets are powers of two from 16 bytes, as the shared pool's, so code that relies on the spare tail is exercised.</remarks>
[System.Diagnostics.DebuggerDisplay("Rents = {Rents}, Returns = {Returns}, Outstanding = {Outstanding}")]
public sealed class TrackingArrayPool : ArrayPool<byte>
{
    /// <summary>What a fresh array holds: a check must never pass because new memory happened to be zero.</summary>
    public const byte Fresh = 0xCD;

    /// <summary>What a returned array is filled with: code that reads an array after returning it reads this.</summary>
    public const byte Poison = 0xDD;

    private readonly Lock _gate = new();
    private readonly HashSet<byte[]> _outstanding = new(ReferenceEqualityComparer.Instance);
    private readonly List<string> _violations = [];
    private readonly Dictionary<int, Stack<byte[]>> _free = [];

    /// <summary>How many arrays were rented (zero-length requests are not counted: nothing to return).</summary>
    public int Rents { get; private set; }

    /// <summary>How many returns were made, counted or not.</summary>
    public int Returns { get; private set; }

    /// <summary>The largest size anyone asked this pool for.</summary>
    public int LargestRequest { get; private set; }

    /// <summary>Arrays rented and not yet returned.</summary>
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

    /// <summary>Null when every rented array came back exactly once; otherwise what went wrong, in a sentence.</summary>
    public string? Imbalance
    {
        get
        {
            lock (_gate)
            {
                if (_violations.Count > 0)
                {
                    return string.Join("; ", _violations);
                }

                return _outstanding.Count > 0 ? $"{_outstanding.Count} of {Rents} rented arrays were never returned" : null;
            }
        }
    }

    /// <inheritdoc />
    public override byte[] Rent(int minimumLength)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(minimumLength);
        if (minimumLength == 0)
        {
            return []; // as the shared pool does: nothing to track, nothing to return
        }

        int size = (int)Math.Max(16, BitOperations.RoundUpToPowerOf2((uint)minimumLength));
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

    /// <inheritdoc />
    public override void Return(byte[] array, bool clearArray = false)
    {
        ArgumentNullException.ThrowIfNull(array);
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
}
