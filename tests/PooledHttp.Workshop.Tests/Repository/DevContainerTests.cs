using System.Text.Json;
using System.Text.RegularExpressions;
using System.Xml.Linq;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Repository;

/// <summary>
/// The Codespace's configuration against the Dev Container specification and against the repository: every property is
/// one the spec defines, with a type it allows; the slow steps run where a Codespaces prebuild runs them; the Jupyter
/// kernel's tool is the repository's pin, and that version installs; every path, project and extension it names exists
/// or agrees.
/// </summary>
public partial class DevContainerTests
{
    private const string PrefetchTool = "tools/PrefetchRuntimes/prefetch-runtimes.cs";

    private static readonly JsonValueKind[] Text = [JsonValueKind.String];
    private static readonly JsonValueKind[] Map = [JsonValueKind.Object];
    private static readonly JsonValueKind[] List = [JsonValueKind.Array];
    private static readonly JsonValueKind[] Flag = [JsonValueKind.True, JsonValueKind.False];
    private static readonly JsonValueKind[] Command = [JsonValueKind.String, JsonValueKind.Array, JsonValueKind.Object];

    // Every devcontainer.json property and its JSON types, from https://containers.dev/implementors/json_reference/
    // (the same set as devcontainers/spec's schemas/devContainer.base.schema.json).
    private static readonly Dictionary<string, JsonValueKind[]> SpecProperties = new(StringComparer.Ordinal)
    {
        ["name"] = Text,
        ["image"] = Text,
        ["build"] = Map,
        ["dockerComposeFile"] = [JsonValueKind.String, JsonValueKind.Array],
        ["service"] = Text,
        ["runServices"] = List,
        ["workspaceFolder"] = Text,
        ["workspaceMount"] = Text,
        ["appPort"] = [JsonValueKind.Number, JsonValueKind.String, JsonValueKind.Array],
        ["runArgs"] = List,
        ["shutdownAction"] = Text,
        ["overrideCommand"] = Flag,
        ["forwardPorts"] = List,
        ["portsAttributes"] = Map,
        ["otherPortsAttributes"] = Map,
        ["containerEnv"] = Map,
        ["remoteEnv"] = Map,
        ["containerUser"] = Text,
        ["remoteUser"] = Text,
        ["updateRemoteUserUID"] = Flag,
        ["userEnvProbe"] = Text,
        ["init"] = Flag,
        ["privileged"] = Flag,
        ["capAdd"] = List,
        ["securityOpt"] = List,
        ["mounts"] = List,
        ["features"] = Map,
        ["overrideFeatureInstallOrder"] = List,
        ["customizations"] = Map,
        ["secrets"] = Map,
        ["hostRequirements"] = Map,
        ["waitFor"] = Text,
        ["initializeCommand"] = Command,
        ["onCreateCommand"] = Command,
        ["updateContentCommand"] = Command,
        ["postCreateCommand"] = Command,
        ["postStartCommand"] = Command,
        ["postAttachCommand"] = Command,
    };

    private static readonly string[] Lifecycle = ["initializeCommand", "onCreateCommand", "updateContentCommand", "postCreateCommand", "postStartCommand", "postAttachCommand"];

    // The lifecycle commands a Codespaces prebuild runs before the snapshot; postCreateCommand runs only when someone creates
    // the Codespace: https://docs.github.com/en/codespaces/prebuilding-your-codespaces/about-github-codespaces-prebuilds#the-prebuild-process
    private static readonly string[] PrebuildCommands = ["onCreateCommand", "updateContentCommand"];

    private static string Root => RepositoryTests.FindRoot();

    [Fact]
    public void Every_property_is_one_the_spec_defines_with_a_type_it_allows()
    {
        foreach (JsonProperty property in Config().EnumerateObject())
        {
            Assert.True(SpecProperties.TryGetValue(property.Name, out JsonValueKind[]? kinds), $"devcontainer.json has \"{property.Name}\", which the Dev Container spec does not define.");
            Assert.True(kinds.Contains(property.Value.ValueKind), $"\"{property.Name}\" is {property.Value.ValueKind}; the spec allows {string.Join(" or ", kinds)}.");
        }
    }

    [Fact]
    public void Lifecycle_commands_are_strings_arrays_of_strings_or_maps_of_either()
    {
        JsonElement config = Config();
        foreach (string name in Lifecycle)
        {
            if (!config.TryGetProperty(name, out JsonElement command))
            {
                continue;
            }

            JsonElement[] steps = command.ValueKind == JsonValueKind.Object ? [.. command.EnumerateObject().Select(p => p.Value)] : [command];
            foreach (JsonElement step in steps)
            {
                bool valid = step.ValueKind == JsonValueKind.String
                    || (step.ValueKind == JsonValueKind.Array && step.EnumerateArray().All(a => a.ValueKind == JsonValueKind.String));
                Assert.True(valid, $"{name} holds {step.ValueKind}: the spec allows a string, an array of strings, or an object of either.");
            }
        }

        if (config.TryGetProperty("waitFor", out JsonElement waitFor))
        {
            Assert.Contains(waitFor.GetString(), new[] { "initializeCommand", "onCreateCommand", "updateContentCommand", "postCreateCommand", "postStartCommand" });
        }
    }

    [Fact]
    public void Features_map_ids_to_option_objects_and_bring_the_sdk_and_jupyter()
    {
        JsonProperty[] features = [.. Config().GetProperty("features").EnumerateObject()];
        Assert.NotEmpty(features);
        foreach (JsonProperty feature in features)
        {
            // An id is an OCI reference with a major version tag, e.g. ghcr.io/devcontainers/features/dotnet:2.
            Assert.Matches(@"^[a-z0-9.-]+(/[a-z0-9._-]+)+:\d+$", feature.Name);
            Assert.True(feature.Value.ValueKind == JsonValueKind.Object, $"feature {feature.Name} maps to {feature.Value.ValueKind}, not an object of options");
        }

        JsonElement dotnet = features.Single(f => f.Name.StartsWith("ghcr.io/devcontainers/features/dotnet:", StringComparison.Ordinal)).Value;
        Assert.StartsWith("10.", dotnet.GetProperty("version").GetString(), StringComparison.Ordinal);
        // .NET 8 and 9 come from NuGet through the kit (Runtimes.All), as on any machine: one path, tested here.
        Assert.False(dotnet.TryGetProperty("dotnetRuntimeVersions", out _), "the devcontainer should not install runtimes the workshop fetches itself");

        JsonElement python = features.Single(f => f.Name.StartsWith("ghcr.io/devcontainers/features/python:", StringComparison.Ordinal)).Value;
        Assert.True(python.GetProperty("installJupyterlab").GetBoolean(), "the python feature must install Jupyter, the second notebook host");
    }

    [Fact]
    public void Restore_build_runtimes_kernel_and_browser_are_ready_in_a_prebuild()
    {
        string prebuild = string.Join("\n", PrebuildCommands.Select(name => Expanded(Config(), name)));
        Assert.Matches(@"dotnet restore \S+", prebuild);
        Assert.Matches(@"dotnet build \S+ -c Release", prebuild);
        Assert.Contains($"dotnet run -c Release {PrefetchTool}", prebuild, StringComparison.Ordinal);
        Assert.Contains("dotnet tool install --global Microsoft.dotnet-interactive", prebuild, StringComparison.Ordinal);
        Assert.Contains("dotnet interactive jupyter install", prebuild, StringComparison.Ordinal);
        Assert.Matches(@"apt-get install [^\n]*\bchromium\b", prebuild);

        // Done once, ahead: not again in the commands a prebuild leaves to the moment the Codespace is created.
        string later = string.Join("\n", new[] { "postCreateCommand", "postStartCommand", "postAttachCommand" }.Select(name => Expanded(Config(), name)));
        Assert.DoesNotMatch(@"dotnet (restore|build)|prefetch-runtimes|jupyter install", later);
    }

    [Fact]
    public void The_jupyter_kernel_tool_is_the_repositorys_pin()
    {
        (string Install, string? Version)[] installs = [.. ToolPinTests.Installs(AllCommandText())];
        Assert.NotEmpty(installs);
        foreach ((string install, string? version) in installs)
        {
            // The one pin, which The_pinned_kernel_tool_installs installs: not only some exact version, but one that exists.
            Assert.True(version == InteractiveTool.PinnedVersion, $"`{install}` installs {version ?? "whatever is newest"}, not the pin {InteractiveTool.PinnedVersion} ({InteractiveTool.PinFile})");
        }
    }

    [Fact]
    public async Task The_pinned_kernel_tool_installs()
    {
        // The package source serves only some versions (1.0.707101 is refused: "not found"): a pin that does not install
        // would leave the Codespace, CI and the README's Jupyter route without a kernel.
        string toolPath = Directory.CreateTempSubdirectory("pooledhttp-interactive-").FullName;
        try
        {
            (int exit, string output, string error) = await ChildProcess.RunAsync(
                "dotnet", ["tool", "install", InteractiveTool.PackageId, "--version", InteractiveTool.PinnedVersion, "--tool-path", toolPath], TimeSpan.FromMinutes(5));
            Assert.True(exit == 0, $"dotnet tool install {InteractiveTool.PackageId} --version {InteractiveTool.PinnedVersion} failed (exit {exit}): {error}{output}");
            string command = OperatingSystem.IsWindows() ? InteractiveTool.Command + ".exe" : InteractiveTool.Command;
            Assert.True(File.Exists(Path.Combine(toolPath, command)), $"the install left no {command} in {toolPath}");
            Assert.Contains(InteractiveTool.PinnedVersion, output, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(toolPath, recursive: true);
        }
    }

    [Fact]
    public void Scripts_stop_at_the_first_failure()
    {
        foreach (string script in Scripts(Config()))
        {
            string[] lines = File.ReadAllLines(Path.Combine(Root, script));
            Assert.Equal("#!/usr/bin/env bash", lines[0]);
            Assert.True(lines.Any(l => l.Trim() == "set -euo pipefail"), $"{script} does not `set -euo pipefail`");
        }
    }

    [Fact]
    public void Every_path_named_in_the_configuration_and_its_scripts_exists()
    {
        string text = AllCommandText();
        string[] paths = [.. RepositoryPath().Matches(text).Select(m => m.Value.TrimEnd('.', ',', ':')).Distinct()];
        Assert.Contains(".devcontainer/on-create.sh", paths);
        Assert.Contains(PrefetchTool, paths);
        foreach (string path in paths)
        {
            string full = Path.Combine(Root, path);
            Assert.True(File.Exists(full) || Directory.Exists(full), $"{path} is named in the devcontainer's commands but is not in the repository");
        }
    }

    [Fact]
    public void Every_dotnet_command_names_projects_that_exist()
    {
        Match[] commands = DotnetCommand().Matches(AllCommandText()).ToArray();
        Assert.Contains(commands, c => c.Groups["verb"].Value == "build");
        foreach (Match command in commands)
        {
            string[] targets = [.. command.Value.Split(' ', StringSplitOptions.RemoveEmptyEntries).Where(a => Regex.IsMatch(a, @"\.(slnx|sln|csproj|cs)$"))];
            Assert.True(targets.Length > 0, $"`{command.Value.Trim()}` names no project, so it depends on the folder it runs in");
            foreach (string target in targets)
            {
                string full = Path.Combine(Root, target);
                Assert.True(File.Exists(full), $"`{command.Value.Trim()}` names {target}, which does not exist");
                foreach (string project in ProjectsOf(full))
                {
                    Assert.True(File.Exists(project), $"{target} names {Path.GetRelativePath(Root, project)}, which does not exist");
                }
            }
        }
    }

    [Fact]
    public void Vscode_recommends_exactly_the_devcontainers_extensions()
    {
        string[] devcontainer = [.. Config().GetProperty("customizations").GetProperty("vscode").GetProperty("extensions").EnumerateArray().Select(e => e.GetString()!)];
        using JsonDocument vscode = Parse(Path.Combine(Root, ".vscode", "extensions.json"));
        string[] recommended = [.. vscode.RootElement.GetProperty("recommendations").EnumerateArray().Select(e => e.GetString()!)];

        Assert.Equal(devcontainer.Distinct().Count(), devcontainer.Length);
        Assert.Equal(devcontainer.Order(StringComparer.Ordinal), recommended.Order(StringComparer.Ordinal));
        // Both notebook hosts, and C# support.
        Assert.Contains("ms-dotnettools.dotnet-interactive-vscode", devcontainer);
        Assert.Contains("ms-toolsai.jupyter", devcontainer);
        Assert.Contains("ms-dotnettools.csdevkit", devcontainer);
    }

    /// <summary>The devcontainer's root object. JSONC: comments and trailing commas allowed.</summary>
    private static JsonElement Config()
    {
        using JsonDocument doc = Parse(Path.Combine(Root, ".devcontainer", "devcontainer.json"));
        return doc.RootElement.Clone();
    }

    private static JsonDocument Parse(string path)
        => JsonDocument.Parse(File.ReadAllText(path), new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true });

    /// <summary>The text of one lifecycle command (empty when absent), with each script it runs appended.</summary>
    private static string Expanded(JsonElement config, string name)
    {
        string command = CommandText(config, name);
        return string.Join("\n", Scripts(command).Select(s => File.ReadAllText(Path.Combine(Root, s))).Prepend(command));
    }

    /// <summary>Every lifecycle command, with the scripts they run.</summary>
    private static string AllCommandText()
    {
        JsonElement config = Config();
        return string.Join("\n", Lifecycle.Select(name => Expanded(config, name)));
    }

    private static string CommandText(JsonElement config, string name)
    {
        if (!config.TryGetProperty(name, out JsonElement command))
        {
            return string.Empty;
        }

        static string One(JsonElement e) => e.ValueKind == JsonValueKind.Array ? string.Join(' ', e.EnumerateArray().Select(a => a.GetString())) : e.GetString() ?? string.Empty;
        return command.ValueKind == JsonValueKind.Object ? string.Join("\n", command.EnumerateObject().Select(p => One(p.Value))) : One(command);
    }

    private static IEnumerable<string> Scripts(JsonElement config)
        => Lifecycle.SelectMany(name => Scripts(CommandText(config, name))).Distinct();

    private static IEnumerable<string> Scripts(string command) => Regex.Matches(command, @"\.devcontainer/[\w.-]+\.sh").Select(m => m.Value);

    /// <summary>The projects a solution lists, or a file-based app's #:project references; nothing for a project file.</summary>
    private static IEnumerable<string> ProjectsOf(string file)
    {
        string folder = Path.GetDirectoryName(file)!;
        return Path.GetExtension(file) switch
        {
            ".slnx" => XDocument.Load(file).Descendants("Project").Select(p => Path.Combine(folder, (string)p.Attribute("Path")!)),
            ".cs" => File.ReadLines(file).Where(l => l.StartsWith("#:project ", StringComparison.Ordinal)).Select(l => Path.GetFullPath(Path.Combine(folder, l["#:project ".Length..].Trim()))),
            _ => [],
        };
    }

    // A path into the repository: one of its top-level folders, or the solution, named in a command or a script.
    [GeneratedRegex(@"(?<![\w/.$~-])(?:(?:\.devcontainer|\.vscode|\.ci|\.config|helpers|tools|tests|notebooks|exercises|docs|data)/[\w./-]*|PooledHttp\.slnx)")]
    private static partial Regex RepositoryPath();

    [GeneratedRegex(@"\bdotnet (?<verb>restore|build|run|test|publish|pack)\b[^\n;&|]*")]
    private static partial Regex DotnetCommand();
}
