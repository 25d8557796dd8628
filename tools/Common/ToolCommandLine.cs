using System.CommandLine;
using System.CommandLine.Parsing;

namespace PooledHttp.Tools;

/// <summary>
/// How every tool under tools/ reads its command line (System.CommandLine): <c>--help</c> prints the usage to
/// standard output and exits 0; a wrong command line prints what is wrong to standard error and
/// exits <see cref="UsageError"/>, before the tool does anything. Compiled into each tool as source.
/// </summary>
internal static class ToolCommandLine
{
    /// <summary>The exit code of a command line that could not be used.</summary>
    public const int UsageError = 2;

    /// <summary>Parses <paramref name="args"/> and runs <paramref name="command"/>'s action, or explains what is wrong (and shows <paramref name="usage"/>, when given).</summary>
    public static async Task<int> InvokeAsync(RootCommand command, IReadOnlyList<string> args, TextWriter? output = null, TextWriter? error = null, string? usage = null)
    {
        output ??= Console.Out;
        error ??= Console.Error;
        ParseResult parsed = command.Parse(args);
        if (parsed.Errors.Count > 0 && parsed.Action is System.CommandLine.Invocation.ParseErrorAction)
        {
            foreach (ParseError problem in parsed.Errors)
            {
                await error.WriteLineAsync(problem.Message).ConfigureAwait(false);
            }

            if (usage is not null)
            {
                await error.WriteLineAsync(usage).ConfigureAwait(false);
            }

            await error.WriteLineAsync("--help shows every argument and option.").ConfigureAwait(false);
            return UsageError;
        }

        return await parsed.InvokeAsync(new InvocationConfiguration { Output = output, Error = error }).ConfigureAwait(false);
    }

    /// <summary>
    /// Makes a word that starts with '-' and names no option an error: System.CommandLine would otherwise take it as
    /// one of <paramref name="argument"/>'s values (a notebook or an exercise called "--quik").
    /// </summary>
    public static Argument<T> RejectingUnknownOptions<T>(this Argument<T> argument)
    {
        argument.Validators.Add(result =>
        {
            if (result.Tokens.FirstOrDefault(t => t.Value.StartsWith('-')) is { } unknown)
            {
                result.AddError($"Unknown option '{unknown.Value}'.");
            }
        });
        return argument;
    }

    /// <summary>An option whose value must be a number above zero, read the same in every culture.</summary>
    public static Option<double> PositiveNumber(string name, string description, double defaultValue) => new(name)
    {
        Description = description,
        HelpName = "number",
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result =>
        {
            string text = result.Tokens.Single().Value;
            if (double.TryParse(text, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out double value) && value > 0)
            {
                return value;
            }

            result.AddError($"{name} takes a number above 0, not '{text}'.");
            return defaultValue;
        },
    };
}
