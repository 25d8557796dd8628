using System.Globalization;
using System.Net;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Notebooks;

namespace PooledHttp.Workshop.Exercising;

/// <summary>
/// What an exercise's <c>Run</c> call found: the check's verdict, the measurement when there was one,
/// and how long each step took. A notebook displays it, draws it beside the chapter's rows, and checks
/// the learner's prediction against it.
/// </summary>
/// <param name="Exercise">The exercise.</param>
/// <param name="Check">The check process's verdict.</param>
/// <param name="Measured">The learner's rows, measured only when the check passed.</param>
/// <param name="BuildTime">Building the exercises project.</param>
/// <param name="CheckTime">The check process.</param>
/// <param name="MeasureTime">BenchmarkDotNet, its own build included.</param>
public sealed record ExerciseResult(Exercise Exercise, ExerciseCheck Check, MeasurementResult? Measured, TimeSpan BuildTime, TimeSpan CheckTime, TimeSpan MeasureTime) : IHtmlView
{
    /// <summary>Passed, failed or not done yet.</summary>
    public ExerciseStatus Status => Check.Status;

    /// <summary>The learner's row a prediction is compared with: the largest size measured (exercise 01 measures its answer and one byte less).</summary>
    /// <exception cref="InvalidOperationException">Nothing was measured: the check did not pass.</exception>
    public MeasuredRow Yours => Measured?.OrderByDescending(r => r.PayloadBytes ?? 0).FirstOrDefault() ?? throw new InvalidOperationException($"Nothing was measured: {Check.Message}");

    /// <summary>Whether every measured row is within the exercise's allocation target; null when it sets none or nothing was measured.</summary>
    public bool? GoalMet => Exercise.Goal is not null && Measured is not null ? Measured.All(Exercise.Meets) : null;

    /// <summary>
    /// Done: the check passed and the goal, where the exercise sets one, is met. The one definition the runner's
    /// summary and <c>tools/RunExercise</c> both count.
    /// </summary>
    public bool Done => Status == ExerciseStatus.Passed && GoalMet != false;

    /// <summary>The whole call, build to measurement.</summary>
    public TimeSpan TotalTime => BuildTime + CheckTime + MeasureTime;

    /// <summary>
    /// A sentence comparing <paramref name="predictedBytes"/> with what was measured: "predict, then run".
    /// Within a factor of two counts as a good guess: allocations here span six orders of magnitude.
    /// </summary>
    public string Compare(long predictedBytes)
    {
        if (Measured is null)
        {
            return $"Nothing to compare yet ({Status}): {Check.Message}";
        }

        long measured = Yours.AllocatedBytes;
        double ratio = measured == 0 ? double.PositiveInfinity : (double)predictedBytes / measured;
        string verdict = ratio is >= 0.5 and <= 2 ? "a good guess: within a factor of two" : ratio < 0.5 ? "you expected less than it allocates" : "you expected more than it allocates";
        return string.Create(CultureInfo.InvariantCulture, $"You predicted {ByteUnits.Format(predictedBytes)}; {Exercise.Label(Yours)} measured {ByteUnits.Format(measured)} per operation: {verdict}.");
    }

    /// <summary>As <see cref="Compare(long)"/>, for a guess of Gen2 collections per 1,000 operations.</summary>
    public string CompareGen2(double predictedPerThousand)
    {
        if (Measured is null)
        {
            return $"Nothing to compare yet ({Status}): {Check.Message}";
        }

        double measured = Yours.Gen2;
        string verdict = (predictedPerThousand == 0) == (measured == 0) && (measured == 0 || predictedPerThousand / measured is >= 0.5 and <= 2)
            ? "a good guess"
            : predictedPerThousand < measured ? "it collects more often than you expected" : "it collects less often than you expected";
        return string.Create(CultureInfo.InvariantCulture, $"You predicted {predictedPerThousand:0.##} Gen2 collections per 1,000 operations; {Exercise.Label(Yours)} measured {measured:0.##}: {verdict}.");
    }

    /// <summary>The chapter's rows for the same cases as the learner's, then the learner's: what <see cref="Chart"/> draws.</summary>
    public IReadOnlyList<MeasuredRow> BesideRows(MeasurementResult chapter)
    {
        ArgumentNullException.ThrowIfNull(chapter);
        MeasurementResult yours = Measured ?? new MeasurementResult([]);
        return [.. Exercise.Beside(chapter, yours), .. yours];
    }

    /// <summary>
    /// The learner's bar beside the chapter's rows for the same case, from <paramref name="chapter"/>, the chapter's own
    /// run: a Plotly.NET chart once the learner's code passed its check and was measured; before that, a sentence
    /// saying where the bar will be drawn (a chart of the chapter's rows alone would mix cases the exercise does not
    /// measure, and empty axes say nothing).
    /// </summary>
    /// <returns>A <see cref="Plotly.NET.GenericChart"/>, or an <see cref="HtmlFragment"/> before there is anything to draw; a cell shows either with <c>display</c>.</returns>
    public object Chart(MeasurementResult chapter)
    {
        ArgumentNullException.ThrowIfNull(chapter);
        if (Measured is null)
        {
            return new HtmlFragment($"<p><i>{WebUtility.HtmlEncode(Exercise.Id)}: no chart yet. Once your code passes its check, its bar is drawn here beside the chapter's strategies for the same case.</i></p>");
        }

        return MeasuredChart(chapter);
    }

    /// <summary>The learner's bar beside the chapter's rows for the same case; only once something was measured.</summary>
    /// <exception cref="InvalidOperationException">Nothing was measured.</exception>
    public Plotly.NET.GenericChart MeasuredChart(MeasurementResult chapter)
    {
        ArgumentNullException.ThrowIfNull(chapter);
        MeasurementResult yours = Measured ?? throw new InvalidOperationException($"Nothing was measured: {Check.Message}");
        return Exercise.Chart($"{Exercise.Id}: yours beside the chapter's strategies", [.. Exercise.Beside(chapter, yours).Concat(yours)]);
    }

    /// <inheritdoc />
    public string ToHtml()
    {
        string colour = Status switch { ExerciseStatus.Passed => "#2e7d32", ExerciseStatus.Failed => "#c62828", _ => "#6d6d6d" };
        string heading = Status switch { ExerciseStatus.Passed => "passed", ExerciseStatus.Failed => "check failed", _ => "not done yet" };
        string html = $"<div style=\"border-left:4px solid {colour};padding:4px 10px\"><b>{Exercise.Id} · {WebUtility.HtmlEncode(Exercise.Title)}: {heading}</b>"
            + $"<pre style=\"white-space:pre-wrap\">{WebUtility.HtmlEncode(Check.Message)}</pre>";
        if (Measured is not null)
        {
            html += Measured.ToHtml();
            if (Exercise.Goal is { } goal)
            {
                html += $"<p>Goal: {WebUtility.HtmlEncode(goal)}: <b>{(GoalMet == true ? "met" : "not met yet")}</b>.</p>";
            }
        }

        return html + $"<p><small>{Timings()}</small></p></div>";
    }

    /// <inheritdoc />
    public override string ToString()
        => $"{Exercise.Id} · {Exercise.Title}: {Status}{Environment.NewLine}{Check.Message}{(Measured is null ? string.Empty : Environment.NewLine + Measured)}"
            + (GoalMet is { } met ? $"{Environment.NewLine}Goal: {Exercise.Goal}: {(met ? "met" : "not met yet")}." : string.Empty)
            + $"{Environment.NewLine}{Timings()}";

    private string Timings() => string.Create(CultureInfo.InvariantCulture, $"build {BuildTime.TotalSeconds:0.0} s, check {CheckTime.TotalSeconds:0.0} s, measure {MeasureTime.TotalSeconds:0.0} s: {TotalTime.TotalSeconds:0.0} s in all.");
}
