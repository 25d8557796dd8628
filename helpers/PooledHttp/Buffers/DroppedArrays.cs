using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;

namespace PooledHttp.Buffers;

/// <summary>
/// Arrays of one size that a <see cref="BoundedArrayPool"/> let go of (a return its budget refused, or a free array
/// dropped to make room), held only through weak handles: nothing here keeps an array alive, so the GC takes each
/// at its next full collection, as it takes any array nobody references. Until it does, a rent may take one back
/// instead of allocating another.
/// </summary>
/// <remarks>
/// <para>Why: a load past the budget would otherwise allocate an array for every rent the free arrays cannot serve and
/// drop one at every return they cannot keep. Those are large objects, collected only by full collections, which
/// the GC starts when the large-object heap's allocation budget runs out; that budget grows with what survived the
/// last one (the bodies in flight and the pool's own arrays), so between two collections the dropped arrays pile up
/// to about as much again (the repository's <c>docs/measurements.md</c>, "Past the budget"). Taking a dropped array
/// back while it is still there stops the pile from forming: no allocation, no collection, and the process holds
/// what the load has in flight. What the pool keeps through a full collection is still its budget.</para>
/// <para>Not thread-safe: the pool calls it under its lock. At most <see cref="Capacity"/> handles; past that the
/// oldest handle goes, and its array is simply garbage.</para>
/// </remarks>
internal sealed class DroppedArrays
{
    /// <summary>The most arrays remembered per size: 16 MiB bodies four times past the default 256 MiB budget need
    /// 48; a bound keeps the scans below short.</summary>
    internal const int Capacity = 256;

    private readonly GCHandle[] _handles = new GCHandle[Capacity];
    private int _count;

    /// <summary>Remembers <paramref name="array"/>, forgetting the oldest array when full.</summary>
    public void Add(byte[] array)
    {
        if (_count == Capacity)
        {
            _handles[0].Free();
            Array.Copy(_handles, 1, _handles, 0, Capacity - 1);
            _count--;
        }

        _handles[_count++] = GCHandle.Alloc(array, GCHandleType.Weak);
    }

    /// <summary>Takes back the most recently dropped array the GC has not collected yet; forgets the collected ones on the way.</summary>
    public bool TryTake([NotNullWhen(true)] out byte[]? array)
    {
        while (_count > 0)
        {
            ref GCHandle newest = ref _handles[--_count];
            array = newest.Target as byte[];
            newest.Free();
            if (array is not null)
            {
                return true;
            }
        }

        array = null;
        return false;
    }

    /// <summary>Whether <paramref name="array"/> is among the arrays still remembered: a return of it now is a second return.</summary>
    public bool Contains(byte[] array)
    {
        for (int i = 0; i < _count; i++)
        {
            if (ReferenceEquals(_handles[i].Target, array))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Forgets every array.</summary>
    private void Clear()
    {
        for (int i = 0; i < _count; i++)
        {
            _handles[i].Free();
        }

        _count = 0;
    }

    /// <summary>Frees the handles of a pool nobody uses any more.</summary>
    ~DroppedArrays() => Clear();
}
