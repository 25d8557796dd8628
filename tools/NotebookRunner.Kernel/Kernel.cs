using Microsoft.AspNetCore.Html;
using Microsoft.DotNet.Interactive.Formatting;

// The namespaces and the names are the kernel's on purpose: a cell compiles against these exactly as it
// compiles against the .NET Interactive kernel's helpers, which the kernel brings into scope with
// `using static Microsoft.DotNet.Interactive.Kernel;` (CSharpKernelExtensions.UseKernelHelpers), and the
// workshop kit finds the host's display by these names in either host (see the kit's LiveOutput).
namespace Microsoft.DotNet.Interactive
{
    /// <summary>
    /// The kernel helpers the notebooks may use, with the shapes of
    /// <c>src/Microsoft.DotNet.Interactive/Kernel.Static.cs</c> in dotnet/interactive: <c>display(value, params
    /// mimeTypes)</c> and <c>HTML(text)</c>. Nothing else: a notebook that needs another helper of the kernel's
    /// fails here first, rather than passing here and failing there.
    /// </summary>
    public static class Kernel
    {
        /// <summary>
        /// Shows <paramref name="value"/> as an output of the running cell and returns a handle that is NOT that
        /// output, as in the kernel: <c>DisplayExtensions.Display</c> (Microsoft.DotNet.Interactive.Formatting)
        /// raises its event with one <c>new DisplayedValue(...)</c> and returns another, so the two carry different
        /// ids and the handle's <c>Update</c> names an output that does not exist. Jupyter then changes nothing
        /// visible; so does the runner.
        /// </summary>
        public static DisplayedValue display(object value, params string[] mimeTypes)
        {
            DisplaySink.Current.Display(value, mimeTypes ?? []);
            return new DisplayedValue(null, mimeTypes ?? []);
        }

        /// <summary>Marks <paramref name="content"/> as HTML, as the kernel's <c>content.ToHtmlContent()</c> does.</summary>
        public static IHtmlContent HTML(string content) => new HtmlString(content);
    }

    /// <summary>
    /// The running cell's context, as the kernel's <c>KernelInvocationContext.Current</c>: the way to a display
    /// handle that does update its output (<see cref="KernelInvocationContextExtensions.Display"/>).
    /// </summary>
    public sealed class KernelInvocationContext
    {
        private static readonly KernelInvocationContext Running = new();

        private KernelInvocationContext()
        {
        }

        /// <summary>The running cell's context; <see langword="null"/> outside a cell.</summary>
        public static KernelInvocationContext? Current => DisplaySink.IsSet ? Running : null;
    }

    /// <summary>The kernel's <c>KernelInvocationContextExtensions</c> (src/Microsoft.DotNet.Interactive), its <c>Display</c> only.</summary>
    public static class KernelInvocationContextExtensions
    {
        /// <summary>
        /// Shows <paramref name="value"/> and returns the handle of that very output, as the kernel does: it builds
        /// one <c>DisplayedValue</c>, publishes <c>DisplayedValueProduced</c> with its id, and returns it, so
        /// <c>Update</c> publishes <c>DisplayedValueUpdated</c> for the same id and the front end replaces the output.
        /// </summary>
        public static DisplayedValue Display(this KernelInvocationContext context, object value, params string[] mimeTypes)
        {
            ArgumentNullException.ThrowIfNull(context);
            return new DisplayedValue(DisplaySink.Current.Display(value, mimeTypes ?? []), mimeTypes ?? []);
        }
    }

    /// <summary>Where displays go: the runner's outputs of the running cell.</summary>
    internal interface IDisplaySink
    {
        /// <summary>Adds an output and returns what names it for <see cref="Update"/>.</summary>
        object Display(object? value, string[] mimeTypes);

        /// <summary>Replaces the data of <paramref name="output"/>.</summary>
        void Update(object output, object? value, string[] mimeTypes);

        /// <summary>An update for an id no output carries: nothing visible changes, as in Jupyter.</summary>
        void UpdateNothing(object? value);
    }

    /// <summary>The runner sets the sink as each cell starts; the helpers fail clearly without one.</summary>
    internal static class DisplaySink
    {
        private static IDisplaySink? _current;

        public static bool IsSet => _current is not null;

        public static IDisplaySink Current
        {
            get => _current ?? throw new InvalidOperationException("display() needs a running notebook cell.");
            set => _current = value;
        }
    }
}

namespace Microsoft.DotNet.Interactive.Formatting
{
    /// <summary>
    /// The kernel's <c>Formatter</c> (src/Microsoft.DotNet.Interactive.Formatting/Formatter.cs), its
    /// <c>Register&lt;T&gt;(Action&lt;T, TextWriter&gt;, string mimeType = "text/plain")</c> only: a notebook registers
    /// how values of a type are written for a MIME type, and every later display of such a value (or of a
    /// subtype) uses it. As in the kernel (<c>TryFindPreferredFormatter</c>), the formatter for the most
    /// specific type wins, and among formatters for the same type the latest registered.
    /// </summary>
    public static class Formatter
    {
        private static readonly List<(Type Type, string MimeType, Action<object, TextWriter> Write)> Registered = [];

        /// <summary>Registers <paramref name="formatter"/> for values of <typeparamref name="T"/> and <paramref name="mimeType"/>.</summary>
        public static void Register<T>(Action<T, TextWriter> formatter, string mimeType = "text/plain")
        {
            ArgumentNullException.ThrowIfNull(formatter);
            ArgumentException.ThrowIfNullOrWhiteSpace(mimeType);
            lock (Registered)
            {
                Registered.Add((typeof(T), mimeType, (value, writer) => formatter((T)value, writer)));
            }
        }

        /// <summary>The runner's lookup: the latest formatter registered for <paramref name="value"/>'s type (or a base of it) and <paramref name="mimeType"/>.</summary>
        internal static bool TryFormat(object? value, string mimeType, out string text)
        {
            text = string.Empty;
            if (value is null)
            {
                return false;
            }

            Action<object, TextWriter>? write;
            lock (Registered)
            {
                write = Registered
                    .Select((f, index) => (f.Type, f.MimeType, f.Write, Index: index))
                    .Where(f => f.MimeType == mimeType && f.Type.IsInstanceOfType(value))
                    .OrderByDescending(f => Depth(f.Type))
                    .ThenByDescending(f => f.Index)
                    .Select(f => f.Write)
                    .FirstOrDefault();
            }

            if (write is null)
            {
                return false;
            }

            using var writer = new StringWriter();
            write(value, writer);
            text = writer.ToString();
            return true;
        }

        /// <summary>How far <paramref name="type"/> is from <see cref="object"/>: a subclass is more specific than its base.</summary>
        private static int Depth(Type type)
        {
            int depth = 0;
            for (Type? t = type; t is not null; t = t.BaseType)
            {
                depth++;
            }

            return depth;
        }

        /// <summary>Whether a formatter for <paramref name="mimeType"/> applies to <paramref name="value"/>.</summary>
        internal static bool Has(object? value, string mimeType)
        {
            lock (Registered)
            {
                return value is not null && Registered.Exists(f => f.MimeType == mimeType && f.Type.IsInstanceOfType(value));
            }
        }
    }

    /// <summary>The handle a display returns, as the kernel's <c>Microsoft.DotNet.Interactive.Formatting.DisplayedValue</c>.</summary>
    public sealed class DisplayedValue
    {
        private readonly object? _output;
        private readonly string[] _mimeTypes;

        internal DisplayedValue(object? output, string[] mimeTypes)
        {
            _output = output;
            _mimeTypes = mimeTypes;
        }

        /// <summary>Replaces the output this handle names with <paramref name="updatedValue"/>, when it names one.</summary>
        public void Update(object updatedValue)
        {
            if (_output is null)
            {
                DisplaySink.Current.UpdateNothing(updatedValue);
                return;
            }

            DisplaySink.Current.Update(_output, updatedValue, _mimeTypes);
        }
    }
}
