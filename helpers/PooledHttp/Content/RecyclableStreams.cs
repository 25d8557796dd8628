using Microsoft.IO;

namespace PooledHttp.Content;

/// <summary>
/// The shared <see cref="RecyclableMemoryStreamManager"/>. Its free pools are unbounded by default, so a burst
/// of large bodies would stay in memory forever; these settings cap what it keeps: at most 16 MiB of free
/// small blocks and 64 MiB of free large buffers, 80 MiB in all.
/// </summary>
/// <remarks>
/// <para>Large buffers back a stream's <see cref="RecyclableMemoryStream.GetBuffer"/>, and a writer's
/// <see cref="RecyclableMemoryStream.GetMemory"/> asked for more than one block (<c>Utf8JsonWriter</c> does that
/// before a long string). RecyclableMemoryStream applies its large-pool limit to each buffer size on its own, not
/// to the pool as a whole: with its default layout (one size per MiB up to 128 MiB) a limit of 64 MiB would let
/// the free large buffers add up to 3,403 MiB. So the sizes here are powers of two (1, 2, 4 and 8 MiB), each kept up
/// to 16 MiB: 64 MiB at most in all. A large buffer over 8 MiB is allocated and left to the garbage collector.</para>
/// </remarks>
public static class RecyclableStreams
{
    /// <summary>
    /// Small blocks: 128 KiB each, the library's default. That is above the 85,000-byte large object
    /// threshold, so every block lives on the LOH; that is fine for arrays allocated once and reused for
    /// the life of the process, which is what a pool does with them.
    /// </summary>
    private const int BlockSize = 128 * 1024;

    /// <summary>The smallest large buffer; the others are its powers of two.</summary>
    private const int LargeBufferMultiple = 1024 * 1024;

    /// <summary>The largest large buffer kept: 8 MiB, four sizes from <see cref="LargeBufferMultiple"/>.</summary>
    private const int MaximumBufferSize = 8 * LargeBufferMultiple;

    /// <summary>Keep at most 16 MiB of free small blocks (one limit for the whole small pool): enough for a few dozen bodies in flight.</summary>
    private const long MaximumSmallPoolFreeBytes = 16L * 1024 * 1024;

    /// <summary>Keep at most 16 MiB of free large buffers of each size; four sizes, so 64 MiB in all.</summary>
    private const long MaximumLargePoolFreeBytesPerSize = 16L * 1024 * 1024;

    /// <summary>The manager every helper uses unless given another. Its <c>Settings</c> are shared by every caller in the
    /// process: change them and the caps above change for all; a caller that needs other settings makes its own manager.</summary>
    public static RecyclableMemoryStreamManager Manager { get; } = new(new RecyclableMemoryStreamManager.Options
    {
        BlockSize = BlockSize,
        LargeBufferMultiple = LargeBufferMultiple,
        UseExponentialLargeBuffer = true,
        MaximumBufferSize = MaximumBufferSize,
        MaximumSmallPoolFreeBytes = MaximumSmallPoolFreeBytes,
        MaximumLargePoolFreeBytes = MaximumLargePoolFreeBytesPerSize,
    });
}
