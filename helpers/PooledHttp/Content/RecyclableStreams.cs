using Microsoft.IO;

namespace PooledHttp.Content;

/// <summary>
/// The shared <see cref="RecyclableMemoryStreamManager"/>. Its free pools are unbounded by default,
/// so a burst of large bodies would stay in memory forever; these limits cap what it keeps.
/// </summary>
public static class RecyclableStreams
{
    /// <summary>
/// Small blocks: 128 KiB each, the library's default. That is above the 85,000-byte large object
/// threshold, so every block lives on the LOH; that is fine for arrays allocated once and reused for
/// the life of the process, which is what a pool does with them.
/// </summary>
    private const int BlockSize = 128 * 1024;

    /// <summary>Large buffers grow in 1 MiB steps, the library's default.</summary>
    private const int LargeBufferMultiple = 1024 * 1024;

    /// <summary>Keep at most 16 MiB of free small blocks: enough for a few dozen bodies in flight.</summary>
    private const long MaximumSmallPoolFreeBytes = 16L * 1024 * 1024;

    /// <summary>Keep at most 64 MiB of free large buffers; beyond that, returned buffers go to the GC.</summary>
    private const long MaximumLargePoolFreeBytes = 64L * 1024 * 1024;

    /// <summary>The manager every helper uses unless given another.</summary>
    public static RecyclableMemoryStreamManager Manager { get; } = new(new RecyclableMemoryStreamManager.Options
    {
        BlockSize = BlockSize,
        LargeBufferMultiple = LargeBufferMultiple,
        MaximumBufferSize = 128 * LargeBufferMultiple,
        MaximumSmallPoolFreeBytes = MaximumSmallPoolFreeBytes,
        MaximumLargePoolFreeBytes = MaximumLargePoolFreeBytes,
    });
}
