using System.Diagnostics.CodeAnalysis;

// Benchmark methods keep the names the sources gave them (S0's "KnownLength_UseArrayPool", S1's
// "RentAndReturn_Shared"), so a measured row and the published figure it answers share a label.
[assembly: SuppressMessage("Naming", "CA1707:Identifiers should not contain underscores", Scope = "namespaceanddescendants", Target = "~N:PooledHttp.Workshop.Benchmarks", Justification = "Names match the published benchmarks.")]
