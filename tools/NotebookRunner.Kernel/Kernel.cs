using Microsoft.AspNetCore.Html;

// The namespace and the names are the kernel's on purpose: a cell compiles against these exactly as it
// compiles against the .NET Interactive kernel's helpers, which the kernel brings into scope with
// `using static Microsoft.DotNet.Interactive.Kernel;` (CSharpKernelExtensions.UseKernelHelpers), and the
// workshop kit finds the host's display() by this name in either host (see the kit's LiveOutput).
namespace Microsoft.DotNet.Interactive;

/// <summary>
/// The kernel helpers the notebooks may use, with the shapes of
/// <c>src/Microsoft.DotNet.Interactive/Kernel.Static.cs</c> in dotnet/interactive:
/// <c>display(value, params mimeTypes)</c> returns a handle whose <c>Update</c> replaces that output in
/// place, and <c>HTML(text)</c> returns an <see cref="IHtmlContent"/>. Nothing else: a notebook that
/// needs another helper of the kernel's fails here first, rather than passing here and failing there.
/// </summary>
public static class Kernel
{
    /// <summary>Shows <paramref name="value"/> as an output of the running cell.</summary>
    public static DisplayedValue display(object value, params string[] mimeTypes)
        => new(DisplaySink.Current.Display(value, mimeTypes ?? []), mimeTypes ?? []);

    /// <summary>Marks <paramref name="content"/> as HTML, as the kernel's <c>content.ToHtmlContent()</c> does.</summary>
    public static IHtmlContent HTML(string content) => new HtmlString(content);
}

/// <summary>The handle <see cref="Kernel.display"/> returns, as the kernel's <c>DisplayedValue</c>.</summary>
public sealed class DisplayedValue
{
    private readonly object _output;
    private readonly string[] _mimeTypes;

    internal DisplayedValue(object output, string[] mimeTypes)
    {
        _output = output;
        _mimeTypes = mimeTypes;
    }

    /// <summary>Replaces the output this handle points at with <paramref name="updatedValue"/>, in place.</summary>
    public void Update(object updatedValue) => DisplaySink.Current.Update(_output, updatedValue, _mimeTypes);
}

/// <summary>Where displays go: the runner's outputs of the running cell.</summary>
internal interface IDisplaySink
{
    /// <summary>Adds an output and returns what names it for <see cref="Update"/>.</summary>
    object Display(object? value, string[] mimeTypes);

    /// <summary>Replaces the data of <paramref name="output"/>.</summary>
    void Update(object output, object? value, string[] mimeTypes);
}

/// <summary>The runner sets the sink as each cell starts; the helpers fail clearly without one.</summary>
internal static class DisplaySink
{
    private static IDisplaySink? _current;

    public static IDisplaySink Current
    {
        get => _current ?? throw new InvalidOperationException("display() needs a running notebook cell.");
        set => _current = value;
    }
}
