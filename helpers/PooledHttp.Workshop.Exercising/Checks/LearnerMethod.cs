namespace PooledHttp.Workshop.Checks;

/// <summary>
/// A public static method of the learner's class, with the stub's signature <typeparamref name="T"/>. Each exercise's
/// file names it once; its check (in the check process) and its benchmark (in BenchmarkDotNet's child) bind it
/// through this, so the class and method are never typed twice.
/// </summary>
/// <param name="className">The class the learner edits, in namespace <see cref="LearnerCode.Namespace"/>.</param>
/// <param name="methodName">The method, as the stub declares it (a property's getter is <c>get_Name</c>).</param>
public sealed class LearnerMethod<T>(string className, string methodName)
    where T : Delegate
{
    /// <summary>The class the learner edits, in namespace <see cref="LearnerCode.Namespace"/>; its file has the same name.</summary>
    public string ClassName { get; } = className;

    /// <summary>The method, as the stub declares it.</summary>
    public string MethodName { get; } = methodName;

    /// <summary>The method in <paramref name="learner"/>, as a <typeparamref name="T"/>.</summary>
    /// <exception cref="InvalidOperationException">The class or method is missing, or its signature differs from the stub's.</exception>
    public T Bind(Assembly learner) => LearnerCode.Bind<T>(learner, ClassName, MethodName);
}
