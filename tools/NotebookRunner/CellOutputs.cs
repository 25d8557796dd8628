using System.Text;

namespace NotebookRunner;

/// <summary>
/// The outputs of the cell that is running, in the order they happened: console text and displays
/// interleaved, stdout and stderr as streams of their own, as the kernel reports them to an editor.
/// One notebook runs per process, so the running cell is process-wide, like the kernel's
/// <c>KernelInvocationContext.Current</c> for a cell that starts threads of its own.
/// </summary>
internal sealed class CellOutputs : Microsoft.DotNet.Interactive.IDisplaySink
{
    private static readonly object Gate = new();

    private readonly List<CellOutput> _outputs = [];
    private readonly TextWriter _live;

    private CellOutputs(TextWriter live) => _live = live;

    /// <summary>Starts collecting for a cell; <paramref name="live"/> echoes what happens, for the runner's console.</summary>
    public static CellOutputs Begin(TextWriter live)
    {
        var outputs = new CellOutputs(live);
        Microsoft.DotNet.Interactive.DisplaySink.Current = outputs; // where display() of this cell goes
        return outputs;
    }

    /// <summary>Outputs so far, in order.</summary>
    public List<CellOutput> Snapshot()
    {
        lock (Gate)
        {
            return [.. _outputs];
        }
    }

    public void Add(CellOutput output)
    {
        lock (Gate)
        {
            _outputs.Add(output);
        }
    }

    public object Display(object? value, string[] mimeTypes)
    {
        CellOutput output = CellOutput.Display(value, mimeTypes);
        Add(output);
        _live.WriteLine($"   [display] {output.Text}");
        return output;
    }

    public void Update(object output, object? value, string[] mimeTypes)
    {
        var shown = (CellOutput)output;
        lock (Gate)
        {
            shown.Replace(value, mimeTypes);
        }

        _live.WriteLine($"   [update] {shown.Text}");
    }

    public void UpdateNothing(object? value)
        => _live.WriteLine($"   [update of a display() handle: no output carries its id, so nothing changes, as in the kernel] {value}");

    /// <summary>A writer that appends to this cell's <paramref name="stream"/> output and echoes live.</summary>
    public TextWriter Writer(string stream) => new StreamWriter(this, stream);

    private void Write(string stream, string text)
    {
        lock (Gate)
        {
            // Consecutive writes to one stream are one output; a display in between starts a new one.
            if (_outputs.Count == 0 || _outputs[^1].Kind != stream)
            {
                _outputs.Add(CellOutput.Stream(stream));
            }

            _outputs[^1].Append(text);
        }

        _live.Write(text);
    }

    private sealed class StreamWriter(CellOutputs outputs, string stream) : TextWriter
    {
        public override Encoding Encoding => Encoding.UTF8;

        public override void Write(char value) => outputs.Write(stream, value.ToString());

        public override void Write(string? value)
        {
            if (!string.IsNullOrEmpty(value))
            {
                outputs.Write(stream, value);
            }
        }

        public override void Write(char[] buffer, int index, int count) => Write(new string(buffer, index, count));

        public override void WriteLine(string? value) => Write(value + Environment.NewLine);
    }
}
