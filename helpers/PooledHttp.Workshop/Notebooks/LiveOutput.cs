using System.Diagnostics;
using System.Reflection;

namespace PooledHttp.Notebooks;

/// <summary>
/// A line of text shown under the running cell and replaced in place as work progresses: "case 3 of 8,
/// 1:12 elapsed" while a benchmark runs for minutes. In a notebook it is the host's own
/// <c>display(value)</c> and <c>DisplayedValue.Update(value)</c>, which the .NET Interactive kernel
/// (<c>Microsoft.DotNet.Interactive.Kernel</c>) and the headless runner both provide under that name;
/// anywhere else (a console, a test) each update is a line on the console.
/// </summary>
[DebuggerDisplay("{Text}")]
public sealed class LiveOutput
{
    private const string HostHelpers = "Microsoft.DotNet.Interactive.Kernel";

    private readonly object? _handle;
    private readonly MethodInfo? _update;

    private LiveOutput(string text, object? handle, MethodInfo? update)
    {
        Text = text;
        _handle = handle;
        _update = update;
    }

    /// <summary>What is shown now.</summary>
    public string Text { get; private set; }

    /// <summary>True when the text is a notebook output; false when it goes to the console.</summary>
    public bool InNotebook => _handle is not null;

    /// <summary>Shows <paramref name="text"/> as a new output of the running cell, or on the console outside a notebook.</summary>
    public static LiveOutput Show(string text)
    {
        MethodInfo? display = FindHostDisplay();
        if (display is not null)
        {
            try
            {
                object? handle = display.Invoke(null, [text, Array.Empty<string>()]);
                MethodInfo? update = handle?.GetType().GetMethod("Update", [typeof(object)]);
                if (handle is not null && update is not null)
                {
                    return new LiveOutput(text, handle, update);
                }
            }
            catch (TargetInvocationException)
            {
                // No cell is running (display called from outside one): fall back to the console.
            }
        }

        Console.WriteLine(text);
        return new LiveOutput(text, null, null);
    }

    /// <summary>Replaces the shown text.</summary>
    public void Update(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        Text = text;
        if (_update is not null)
        {
            try
            {
                _update.Invoke(_handle, [text]);
                return;
            }
            catch (TargetInvocationException)
            {
                // The cell that owned the output has ended; the console still hears about it.
            }
        }

        Console.WriteLine(text);
    }

    /// <summary>The host's <c>display(object, params string[])</c>, when this process is a notebook kernel.</summary>
    private static MethodInfo? FindHostDisplay() => AppDomain.CurrentDomain.GetAssemblies()
        .Select(assembly => assembly.GetType(HostHelpers, throwOnError: false))
        .OfType<Type>()
        .Select(type => type.GetMethod("display", BindingFlags.Public | BindingFlags.Static, [typeof(object), typeof(string[])]))
        .FirstOrDefault(method => method is not null);
}
