namespace PooledHttp.Workshop.Fetching;

/// <summary>A .NET runtime the workshop asked NuGet for and could not get.</summary>
public sealed class RuntimeUnavailableException(string message) : Exception(message);
