#if !NET9_0_OR_GREATER
namespace System.Runtime.CompilerServices;

/// <summary>
/// The compiler's overload priority (C# 13), which .NET 9 and later declare themselves; declared here for the net8.0
/// build, where the compiler honours it by name. Used so that <c>PooledJsonContent.Create(value, null)</c> binds to the
/// overload with serializer options on every target.
/// </summary>
[AttributeUsage(AttributeTargets.Method | AttributeTargets.Constructor | AttributeTargets.Property, Inherited = false)]
internal sealed class OverloadResolutionPriorityAttribute(int priority) : Attribute
{
    /// <summary>Higher wins among the applicable overloads of one type.</summary>
    public int Priority { get; } = priority;
}
#endif
