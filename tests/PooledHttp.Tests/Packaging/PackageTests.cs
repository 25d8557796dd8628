using System.IO.Compression;
using System.Text;
using System.Text.RegularExpressions;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Packaging;

/// <summary>
/// The library as a user gets it: packed, installed from a folder into a console project outside this
/// repository, and used there for a pooled read; the README's examples compile against that package.
/// </summary>
[Collection(SerialTests.Name)]
public partial class PackageTests
{
    private static readonly string Root = RepositoryRoot.Find();

    [Fact]
    public async Task The_package_installs_from_a_folder_and_reads_a_body_in_a_project_outside_the_repository()
    {
        string work = Directory.CreateTempSubdirectory("pooledhttp-package-").FullName;
        string feed = Path.Combine(work, "feed");
        // A version of its own: the NuGet cache must never hand back an older build of the package.
        string version = "0.1.0-test." + Guid.NewGuid().ToString("N")[..8];
        // Packed from a copy of the library's source: a build here must not race the kit's builds that
        // other test assemblies run at the same time in helpers/PooledHttp/bin.
        string source = CopyLibrarySource(Path.Combine(work, "source"));
        await DotnetAsync(source, "pack", Path.Combine("helpers", "PooledHttp", "PooledHttp.csproj"), "-c", "Release", "-o", feed, $"-p:Version={version}", "--nologo");

        string package = Path.Combine(feed, $"PooledHttp.{version}.nupkg");
        using (ZipArchive zip = ZipFile.OpenRead(package))
        {
            string[] entries = zip.Entries.Select(e => e.FullName).ToArray();
            Assert.Contains("README.md", entries);
            Assert.Contains("LICENSE", entries);
            foreach (string tfm in new[] { "net8.0", "net10.0" })
            {
                Assert.Contains($"lib/{tfm}/PooledHttp.dll", entries);
                Assert.Contains($"lib/{tfm}/PooledHttp.xml", entries); // the XML docs travel with it
            }

            Assert.DoesNotContain(entries, e => e.Contains("BenchmarkDotNet", StringComparison.OrdinalIgnoreCase) || e.Contains("Workshop", StringComparison.Ordinal));
            using var nuspec = new StreamReader(zip.Entries.Single(e => e.FullName.EndsWith(".nuspec", StringComparison.Ordinal)).Open());
            string manifest = await nuspec.ReadToEndAsync();
            Assert.Contains("<license type=\"expression\">MIT</license>", manifest, StringComparison.Ordinal);
            Assert.Contains("<readme>README.md</readme>", manifest, StringComparison.Ordinal);
            Assert.Contains("<repository type=\"git\"", manifest, StringComparison.Ordinal);
            // Its only dependency beyond the framework.
            string[] dependencies = DependencyId().Matches(manifest).Select(m => m.Groups["id"].Value).Distinct().ToArray();
            Assert.Equal(["Microsoft.IO.RecyclableMemoryStream"], dependencies);
        }

        string consumer = Path.Combine(work, "consumer");
        Directory.CreateDirectory(consumer);
        await File.WriteAllTextAsync(Path.Combine(consumer, "nuget.config"), $"""
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <add key="local-feed" value="{feed}" />
              </packageSources>
            </configuration>
            """);
        await File.WriteAllTextAsync(Path.Combine(consumer, "Consumer.csproj"), $"""
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup>
                <OutputType>Exe</OutputType>
                <TargetFramework>net10.0</TargetFramework>
                <ImplicitUsings>enable</ImplicitUsings>
                <Nullable>enable</Nullable>
                <TreatWarningsAsErrors>true</TreatWarningsAsErrors>
              </PropertyGroup>
              <ItemGroup>
                <PackageReference Include="PooledHttp" Version="{version}" />
              </ItemGroup>
            </Project>
            """);
        await File.WriteAllTextAsync(Path.Combine(consumer, "Program.cs"), """
            using System.Net;
            using System.Net.Sockets;
            using PooledHttp.Http;

            // A 100,000-byte body from a loopback socket, read with the package's pooled read.
            var listener = new TcpListener(IPAddress.Loopback, 0);
            listener.Start();
            int port = ((IPEndPoint)listener.LocalEndpoint).Port;
            byte[] payload = Enumerable.Range(0, 100_000).Select(i => (byte)(i % 251)).ToArray();
            Task serving = Task.Run(async () =>
            {
                using Socket socket = await listener.AcceptSocketAsync();
                await socket.ReceiveAsync(new byte[4096], SocketFlags.None);
                await socket.SendAsync(System.Text.Encoding.ASCII.GetBytes($"HTTP/1.1 200 OK\r\nContent-Length: {payload.Length}\r\nConnection: close\r\n\r\n"), SocketFlags.None);
                await socket.SendAsync(payload, SocketFlags.None);
                socket.Shutdown(SocketShutdown.Both);
            });
            using var client = new HttpClient();
            using (var body = await client.GetPooledAsync($"http://127.0.0.1:{port}/"))
            {
                Console.WriteLine($"read {body.Length} bytes, equal: {body.Span.SequenceEqual(payload)}");
            }

            await serving;
            """);
        await File.WriteAllTextAsync(Path.Combine(consumer, "ReadmeSnippets.cs"), ReadmeSnippetsAsSource());

        string output = await DotnetAsync(consumer, "run", "--nologo");
        Assert.Contains("read 100000 bytes, equal: True", output, StringComparison.Ordinal);
    }

    /// <summary>The library's project with the repository files its build reads (props, SDK pin, licence), nothing else.</summary>
    private static string CopyLibrarySource(string destination)
    {
        foreach (string file in new[] { "Directory.Build.props", "Directory.Packages.props", "global.json", "LICENSE" })
        {
            Directory.CreateDirectory(destination);
            File.Copy(Path.Combine(Root, file), Path.Combine(destination, file));
        }

        string library = Path.Combine(Root, "helpers", "PooledHttp");
        foreach (string file in Directory.EnumerateFiles(library, "*", SearchOption.AllDirectories))
        {
            string relative = Path.GetRelativePath(library, file);
            if (relative.StartsWith("bin", StringComparison.Ordinal) || relative.StartsWith("obj", StringComparison.Ordinal))
            {
                continue;
            }

            string target = Path.Combine(destination, "helpers", "PooledHttp", relative);
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }

        return destination;
    }

    /// <summary>The README's C# blocks, each as a class of its own: the usings on top, the code inside.</summary>
    private static string ReadmeSnippetsAsSource()
    {
        string readme = File.ReadAllText(Path.Combine(Root, "helpers", "PooledHttp", "README.md"));
        string[] blocks = CSharpBlock().Matches(readme).Select(m => m.Groups["code"].Value).ToArray();
        Assert.True(blocks.Length >= 3, "the README has fewer examples than it should");
        var usings = new SortedSet<string>(StringComparer.Ordinal);
        var body = new StringBuilder();
        for (int i = 0; i < blocks.Length; i++)
        {
            string[] lines = blocks[i].Split('\n');
            foreach (string line in lines.Where(l => l.StartsWith("using ", StringComparison.Ordinal) && l.TrimEnd().EndsWith(';')))
            {
                usings.Add(line.TrimEnd());
            }

            body.Append("internal static class ReadmeSnippet").Append(i + 1).AppendLine().AppendLine("{");
            foreach (string line in lines.Where(l => !(l.StartsWith("using ", StringComparison.Ordinal) && l.TrimEnd().EndsWith(';'))))
            {
                body.AppendLine("    " + line.Replace("static async", "internal static async", StringComparison.Ordinal));
            }

            body.AppendLine("}");
        }

        return string.Join('\n', usings) + "\n\n" + body;
    }

    private static async Task<string> DotnetAsync(string directory, params string[] arguments)
    {
        (int exit, string output, string error) = await ChildProcess.RunAsync("dotnet", arguments, TimeSpan.FromMinutes(5), workingDirectory: directory);
        Assert.True(exit == 0, $"dotnet {string.Join(' ', arguments)} failed in {directory}:\n{output}\n{error}");
        return output;
    }

    [GeneratedRegex("```csharp\\n(?<code>.*?)```", RegexOptions.Singleline)]
    private static partial Regex CSharpBlock();

    [GeneratedRegex("<dependency id=\"(?<id>[^\"]+)\"")]
    private static partial Regex DependencyId();
}
