using System.Globalization;

namespace PooledHttp.Workshop.Measuring;

/// <summary>Durations for people, from nanoseconds: the unit that keeps the number short.</summary>
public static class TimeUnits
{
    /// <summary>Formats <paramref name="nanoseconds"/> as "8.26 ns", "20.91 us", "1.34 ms"; a negative duration keeps its sign.</summary>
    public static string Format(double nanoseconds) => Math.Abs(nanoseconds) switch
    {
        >= 1e6 => string.Create(CultureInfo.InvariantCulture, $"{nanoseconds / 1e6:0.##} ms"),
        >= 1e3 => string.Create(CultureInfo.InvariantCulture, $"{nanoseconds / 1e3:0.##} us"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{nanoseconds:0.##} ns"),
    };

    /// <summary>A mean and its error, "3.31 ms ± 0.42 ms": how the workshop prints any time it compares.</summary>
    public static string Format(double nanoseconds, double errorNanoseconds) => $"{Format(nanoseconds)} ± {Format(errorNanoseconds)}";
}
