using System.Diagnostics;
using System.Reflection;

namespace PooledHttp.Workshop.Notebooks;

/// <summary>
/// A line of text shown under the running cell and replaced in place as work progresses: "case 3 of 8,
/// 1:12 elapsed" while a benchmark runs for minutes. In a notebook it is
/// <c>KernelInvocationContext.Current.Display(value)</c> and that handle's <c>Update(value)</c>, which the .NET
/// Interactive kernel and the headless runner both provide under those names; anywhere else (a console, a
/// test) each update is a line on the console, redrawn in place on a chapter app's terminal (<see cref="InPlaceConsole"/>).
/// </summary>
/// <remarks>
/// Not the kernel's <c>display(value)</c>: its handle is another <c>DisplayedValue</c> than the one it showed
/// (dotnet/interactive, <c>DisplayExtensions.Display</c>), so its updates name an output that does not exist:
/// VS Code adds a second line beside the stale first one, Jupyter changes nothing. The context's
/// <c>Display</c> returns the very value it published (<c>KernelInvocationContextExtensions.Display</c>).
/// </remarks>
[DebuggerDisplay("{Text}")]
public sealed class LiveOutput
{
    private const string HostContext = "Microsoft.DotNet.Interactive.KernelInvocationContext";
    private const string HostDisplay = "Microsoft.DotNet.Interactive.KernelInvocationContextExtensions";

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

    /// <summary>Shows <paramref name="text"/> as a new output of the running cell, or on the console outside a notebook.</summary>
    public static LiveOutput Show(string text) => Show((object)text);

    /// <summary>
    /// Shows <paramref name="value"/> (a chart, for example: the kernel formats it as any displayed value) as a new
    /// output of the running cell, to be replaced in place by <see cref="Update(object)"/>; outside a notebook, its text on the console.
    /// </summary>
    public static LiveOutput Show(object value)
    {
        ArgumentNullException.ThrowIfNull(value);
        string text = value as string ?? value.ToString() ?? string.Empty;
        (object? context, MethodInfo? display) = FindHostDisplay();
        if (context is not null && display is not null)
        {
            try
            {
                object? handle = display.Invoke(null, [context, value, Array.Empty<string>()]);
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

        ToConsole(text);
        return new LiveOutput(text, null, null);
    }

    /// <summary>Replaces the shown text.</summary>
    public void Update(string text) => Update((object)text);

    /// <summary>Replaces the shown value with <paramref name="value"/>.</summary>
    public void Update(object value)
    {
        ArgumentNullException.ThrowIfNull(value);
        string text = value as string ?? value.ToString() ?? string.Empty;
        Text = text;
        if (_update is not null)
        {
            try
            {
                _update.Invoke(_handle, [value]);
                return;
            }
            catch (TargetInvocationException)
            {
                // The cell that owned the output has ended; the console still hears about it.
            }
        }

        ToConsole(text);
    }

    /// <summary>A line of its own, or redrawn in place on a chapter app's terminal (<see cref="InPlaceConsole"/>).</summary>
    private static void ToConsole(string text)
    {
        if (InPlaceConsole.Installed is { } live)
        {
            live.WriteInPlace(text);
        }
        else
        {
            Console.WriteLine(text);
        }
    }

    /// <summary>The running cell's context and the host's <c>Display(this KernelInvocationContext, object, params string[])</c>, when this process is a notebook kernel running a cell.</summary>
    private static (object? Context, MethodInfo? Display) FindHostDisplay()
    {
        foreach (Assembly assembly in AppDomain.CurrentDomain.GetAssemblies())
        {
            Type? contextType = assembly.GetType(HostContext, throwOnError: false);
            Type? displayType = assembly.GetType(HostDisplay, throwOnError: false);
            if (contextType is null || displayType is null)
            {
                continue;
            }

            object? context = contextType.GetProperty("Current", BindingFlags.Public | BindingFlags.Static)?.GetValue(null);
            MethodInfo? display = displayType.GetMethod("Display", BindingFlags.Public | BindingFlags.Static, [contextType, typeof(object), typeof(string[])]);
            return (context, display);
        }

        return (null, null);
    }
}
