using System.Globalization;

namespace PooledHttp.Measuring;

/// <summary>Byte counts for people: 1 KB = 1024 B, as BenchmarkDotNet prints them.</summary>
public static class ByteUnits
{
    private static readonly string[] Units = ["B", "KB", "MB", "GB"];

    /// <summary>Formats <paramref name="bytes"/> as "512 B", "3.71 KB", "1.00 MB".</summary>
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
