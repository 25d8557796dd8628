namespace PooledHttp.Workshop.Measuring;

/// <summary>
/// One measured mean minus another, with the error of the difference: what a chapter may conclude
/// from two times. A difference no larger than its error is printed as inconclusive, never as a result.
/// </summary>
/// <param name="Nanoseconds">The first mean minus the second.</param>
/// <param name="ErrorNanoseconds">
/// The two errors combined as independent errors are (the square root of the sum of their squares).
/// Each is BenchmarkDotNet's half 99.9% confidence interval.
/// </param>
public readonly record struct TimeDifference(double Nanoseconds, double ErrorNanoseconds)
{
    /// <summary><paramref name="first"/>'s mean minus <paramref name="second"/>'s.</summary>
    public static TimeDifference Between(MeasuredRow first, MeasuredRow second)
    {
        ArgumentNullException.ThrowIfNull(first);
        ArgumentNullException.ThrowIfNull(second);
        return new(first.MeanNs - second.MeanNs, Math.Sqrt((first.ErrorNs * first.ErrorNs) + (second.ErrorNs * second.ErrorNs)));
    }

    /// <summary>Whether the difference is larger than its error: only then is it a result.</summary>
    public bool IsResolved => Math.Abs(Nanoseconds) > ErrorNanoseconds;

    /// <summary>"1.2 ms ± 0.3 ms", or the same followed by "(within the error: inconclusive)".</summary>
    public override string ToString()
        => TimeUnits.Format(Nanoseconds, ErrorNanoseconds) + (IsResolved ? string.Empty : " (within the error: inconclusive)");
}
