namespace PooledHttp.Workshop.Checks;

/// <summary>
/// Finds the learner's methods in a build of the exercises project, by name: the check process looks
/// in its own assembly, a benchmark process loads the build the notebook made (its path and module id
/// arrive in the run context, so a stale build is refused, never measured).
/// </summary>
public static class LearnerCode
{
    /// <summary>The namespace every exercise class lives in, in the exercises project and in the solutions.</summary>
    public const string Namespace = "PooledHttp.Exercises";

    /// <summary>The learner's static method <paramref name="method"/> of class <paramref name="type"/>, as a <typeparamref name="T"/>: what <see cref="LearnerMethod{T}.Bind"/> calls.</summary>
    /// <exception cref="InvalidOperationException">The class or method is missing, or its signature differs from the stub's.</exception>
    public static T Bind<T>(Assembly assembly, string type, string method)
        where T : Delegate
    {
        ArgumentNullException.ThrowIfNull(assembly);
        Type declaring = assembly.GetType($"{Namespace}.{type}")
            ?? throw new InvalidOperationException($"The class {Namespace}.{type} is not in {assembly.GetName().Name}: did its name or namespace change? The stub declares it.");
        MethodInfo found = declaring.GetMethod(method, BindingFlags.Public | BindingFlags.Static)
            ?? throw new InvalidOperationException($"{type}.{method} is missing or not public static: keep the stub's signature.");
        return (T?)Delegate.CreateDelegate(typeof(T), found, throwOnBindFailure: false)
            ?? throw new InvalidOperationException($"{type}.{method} has a different signature from the stub's: keep its parameters and return type.");
    }

    /// <summary>In a benchmark process: the exercises build the notebook checked, loaded from the path it names.</summary>
    /// <exception cref="InvalidOperationException">The context names no build, or the file is another build than the one checked.</exception>
    public static Assembly LoadChecked()
    {
        RunContext context = RunContext.Current;
        string path = RunContext.Require(context.ExercisesAssembly, "The exercises build to measure", "the exercise's ExerciseNN.Run call");
        Assembly assembly = Assembly.LoadFrom(path);
        Guid? expected = context.ExercisesBuild;
        if (expected is null || assembly.ManifestModule.ModuleVersionId != expected)
        {
            throw new InvalidOperationException($"{path} is not the build that was checked (module id {assembly.ManifestModule.ModuleVersionId}, expected {expected}): refusing to measure a stale build.");
        }

        return assembly;
    }
}
