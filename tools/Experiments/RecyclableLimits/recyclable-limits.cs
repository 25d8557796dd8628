#:project ../../../helpers/PooledHttp/PooledHttp.csproj
#:property PublishAot=false
// How much RecyclableMemoryStream's large pool can keep free: its limit applies to each buffer size on its own.
// Hands back, for every size a manager pools, one buffer more than its limit keeps, then reads what stayed: for the
// library's settings before the fix (64 MiB per size, one size per MiB up to 128 MiB) and for RecyclableStreams.Manager's.
// Usage: dotnet run -c Release tools/Experiments/RecyclableLimits/recyclable-limits.cs (allocates about 12 GiB in all, keeps up to 3.4 GiB)
using Microsoft.IO;
using PooledHttp.Content;

const int MiB = 1024 * 1024;
var before = new RecyclableMemoryStreamManager.Options
{
    BlockSize = 128 * 1024,
    LargeBufferMultiple = MiB,
    MaximumBufferSize = 128 * MiB,
    MaximumSmallPoolFreeBytes = 16L * MiB,
    MaximumLargePoolFreeBytes = 64L * MiB,
};
foreach ((string name, RecyclableMemoryStreamManager.Options options) in new[] { ("before (64 MiB, linear sizes to 128 MiB)", before), ("RecyclableStreams.Manager", RecyclableStreams.Manager.Settings) })
{
    var manager = new RecyclableMemoryStreamManager(options);
    long limit = options.MaximumLargePoolFreeBytes;
    for (long size = options.LargeBufferMultiple; size <= options.MaximumBufferSize; size = options.UseExponentialLargeBuffer ? size * 2 : size + options.LargeBufferMultiple)
    {
        var streams = Enumerable.Range(0, (int)(limit / size) + 1).Select(_ => manager.GetStream("limits", size, asContiguousBuffer: true)).ToList();
        streams.ForEach(stream => stream.Dispose());
    }

    Console.WriteLine($"{name}: {manager.LargePoolFreeSize / MiB:N0} MiB of free large buffers kept, in {manager.LargeBuffersFree} buffers");
}
