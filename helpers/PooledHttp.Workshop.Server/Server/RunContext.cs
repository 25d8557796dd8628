using System.Text.Json;
using System.Text.Json.Serialization;

namespace PooledHttp.Workshop.Server;

/// <summary>
/// What a process of the workshop hands the processes it starts, as one value in one environment variable
/// (<see cref="Variable"/>): the servers' addresses, the runner's output folder, the measurement profile, the
/// learner's build. A parent puts it on a BenchmarkDotNet job as <see cref="Current"/>.<see cref="With"/> its
/// servers' context, so what the parent was given travels on; the runner and the terminal tools set it on themselves
/// (<see cref="SetForThisProcess"/>) and every process they start inherits it, a check process included. A child
/// reads it through <see cref="Current"/>, and nowhere else.
/// </summary>
/// <remarks>
/// The headless runner compiles this file too (<c>tools/NotebookRunner</c>, as an internal type) to set the output
/// folder and the profile: it cannot reference the kit it runs.
/// </remarks>
#if RUN_CONTEXT_INTERNAL
internal
#else
public
#endif
sealed record RunContext
{
    /// <summary>The one environment variable the context travels in, as JSON.</summary>
    public const string Variable = "POOLEDHTTP_RUN";

    private static readonly JsonSerializerOptions Json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    };

    /// <summary>The runner's output folder, absolute; set only when the headless runner runs the notebook.</summary>
    public string? Output { get; init; }

    /// <summary>The measurement profile, <c>quick</c> or <c>default</c>; unset in an editor.</summary>
    public string? Profile { get; init; }

    /// <summary>The local server's base address (<c>LocalServer</c>).</summary>
    public Uri? Server { get; init; }

    /// <summary>Chapter 06's HTTP/2 (h2c) address.</summary>
    public Uri? Http2 { get; init; }

    /// <summary>Chapter 06's HTTP/1.1 address.</summary>
    public Uri? Http11 { get; init; }

    /// <summary>Chapter 09's HTTP/2 (h2c) address, serving <c>/bytes</c>: another server than chapter 06's, so both can run at once.</summary>
    public Uri? WireHttp2 { get; init; }

    /// <summary>Chapter 09's HTTPS address (HTTP/1.1 over TLS).</summary>
    public Uri? Https { get; init; }

    /// <summary>Chapter 09's certificate for <see cref="Https"/>, base64 DER: the one certificate a client trusts.</summary>
    public string? HttpsCertificate { get; init; }

    /// <summary>The exercises project an exercise builds, when not the learner's own (<c>exercises/</c>).</summary>
    public string? ExercisesProject { get; init; }

    /// <summary>The learner's build an exercise's benchmark loads.</summary>
    public string? ExercisesAssembly { get; init; }

    /// <summary>That build's module id, so a benchmark never measures a stale build.</summary>
    public Guid? ExercisesBuild { get; init; }

    /// <summary>This process's context: what its parent set, or an empty one.</summary>
    /// <exception cref="InvalidOperationException">The variable holds something other than a context.</exception>
    public static RunContext Current => Parse(Environment.GetEnvironmentVariable(Variable));

    /// <summary>Whether the headless runner runs this process's notebook (it sets <see cref="Output"/>; an editor never does).</summary>
    [JsonIgnore]
    public bool UnderRunner => Output is { Length: > 0 };

    /// <summary>A context read from <paramref name="value"/>, the variable's text; empty for none.</summary>
    /// <exception cref="InvalidOperationException"><paramref name="value"/> is not a context.</exception>
    public static RunContext Parse(string? value)
    {
        if (string.IsNullOrWhiteSpace(value))
        {
            return new RunContext();
        }

        try
        {
            return JsonSerializer.Deserialize<RunContext>(value, Json) ?? new RunContext();
        }
        catch (JsonException e)
        {
            throw new InvalidOperationException($"{Variable} holds '{value}', which is not a run context: unset it, or let the workshop's own processes set it.", e);
        }
    }

    /// <summary>This context with every value <paramref name="other"/> sets: a parent's context plus a server's addresses.</summary>
    public RunContext With(RunContext other)
    {
        ArgumentNullException.ThrowIfNull(other);
        return new RunContext
        {
            Output = other.Output ?? Output,
            Profile = other.Profile ?? Profile,
            Server = other.Server ?? Server,
            Http2 = other.Http2 ?? Http2,
            Http11 = other.Http11 ?? Http11,
            WireHttp2 = other.WireHttp2 ?? WireHttp2,
            Https = other.Https ?? Https,
            HttpsCertificate = other.HttpsCertificate ?? HttpsCertificate,
            ExercisesProject = other.ExercisesProject ?? ExercisesProject,
            ExercisesAssembly = other.ExercisesAssembly ?? ExercisesAssembly,
            ExercisesBuild = other.ExercisesBuild ?? ExercisesBuild,
        };
    }

    /// <summary>The variable's text: this context as JSON, unset values left out.</summary>
    public string ToJson() => JsonSerializer.Serialize(this, Json);

    /// <summary>Makes this the context of this process and of every process it starts from now on.</summary>
    public void SetForThisProcess() => Environment.SetEnvironmentVariable(Variable, ToJson());

    /// <summary>
    /// <paramref name="value"/>, or a sentence saying that <paramref name="what"/> is missing and that the code must
    /// run through <paramref name="startedBy"/>, which sets it.
    /// </summary>
    /// <exception cref="InvalidOperationException"><paramref name="value"/> is <see langword="null"/>.</exception>
    public static T Require<T>(T? value, string what, string startedBy) where T : class
        => value ?? throw new InvalidOperationException($"{what} is not in this process's run context ({Variable}). Run it through {startedBy}, which starts it with one.");
}
