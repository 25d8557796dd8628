#:project ../../helpers/PooledHttp.Workshop/PooledHttp.Workshop.csproj
#:property PublishAot=false
// Fetches the .NET runtimes the chapters compare with the running one (.NET 8 and 9 beside .NET 10) into the
// workshop's own dotnet root, artifacts/dotnet, now rather than in the first chapter that needs them. It is the
// chapters' own code (Runtimes.Fetch, which Runtimes.All calls), so what it fetches is what they would have
// fetched, from the same NuGet source. The devcontainer runs it while a Codespace is prebuilt.
// Usage, from inside the repository: dotnet run -c Release tools/PrefetchRuntimes/prefetch-runtimes.cs
// Exit code 1 when a runtime could not be had; the chapters then try again, and measure without it if they must.
using PooledHttp.Workshop.Fetching;
using PooledHttp.Workshop.Measuring;

PrivateDotnet dotnet = Runtimes.Fetch(Console.WriteLine);
string held = string.Join(", ", dotnet.Versions.OrderBy(v => v.Key).Select(v => $".NET {v.Value}"));
Console.WriteLine($"The workshop's dotnet root ({dotnet.Root}) holds {held}.");
foreach (string problem in dotnet.Problems)
{
    Console.Error.WriteLine(problem);
}

return dotnet.Problems.Count == 0 ? 0 : 1;
