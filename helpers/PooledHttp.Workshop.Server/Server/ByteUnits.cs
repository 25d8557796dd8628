using System.Globalization;

namespace PooledHttp.Workshop.Server;

/// <summary>
/// Byte counts for people, in binary units with their binary names: 1 KiB = 1,024 B and 1 MiB =
/// 1,048,576 B (BenchmarkDotNet computes the same, but calls them KB and MB). The workshop keeps KB
/// and MB for decimal sizes only: the sources' round payloads, 70 KB = 70,000 B and 2 MB = 2,000,000 B.
/// </summary>
public static class ByteUnits
{
    private static readonly string[] Units = ["B", "KiB", "MiB", "GiB"];

    /// <summary>Formats <paramref name="bytes"/> as "512 B", "3.71 KiB", "4.95 MiB".</summary>
    public static string Format(double bytes)
    {
        int unit = 0;
        double value = bytes;
        while (Math.Abs(value) >= 1024 && unit < Units.Length - 1)
        {
            value /= 1024;
            unit++;
        }

        return unit == 0
            ? string.Create(CultureInfo.InvariantCulture, $"{value:0} B")
            : string.Create(CultureInfo.InvariantCulture, $"{value:0.##} {Units[unit]}");
    }
}
