using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;

namespace PooledHttp.Buffers;

/// <summary>
/// Arrays of one size that a <see cref="BoundedArrayPool"/> let go of (a return its budget refused, or a free array
/// dropped to make room), held only through weak handles: nothing here keeps an array alive, so the GC takes each
/// one nobody else references, as it would had the pool forgotten it. Until it does, a rent may take one back
/// instead of allocating another.
/// </summary>
/// <remarks>
/// <para>Why: a load past the budget would otherwise allocate an array for every rent the free arrays cannot serve and
/// drop one at every return they cannot keep. Body-sized arrays are mostly large objects, collected only by full
/// collections, which the GC starts when the large-object heap's allocation budget runs out; that budget is set from
/// what survived the last one (the bodies in flight and the pool's own arrays), so between two collections the
/// dropped arrays pile up (the repository's <c>docs/measurements.md</c>, "Past the budget"). Taking a dropped array
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

    /// <summary>Whether <paramref name="array"/> is among the arrays still remembered: a return of it now is a second return.
    /// Forgets, on the way, the arrays the GC has collected, so that the scan stays as short as what is left.</summary>
    public bool Contains(byte[] array)
    {
        bool found = false;
        int kept = 0;
        for (int i = 0; i < _count; i++)
        {
            object? target = _handles[i].Target;
            if (target is null)
            {
                _handles[i].Free();
                continue;
            }

            found |= ReferenceEquals(target, array);
            _handles[kept++] = _handles[i];
        }

        _count = kept;
        return found;
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
