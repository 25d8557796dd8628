namespace NotebookRunner;

/// <summary>
/// What a notebook cell sees besides its own code: the two helpers of the .NET Interactive C# kernel
/// that the workshop's notebooks use, <c>display(value)</c> and <c>HTML(text)</c>.
/// </summary>
public sealed class NotebookGlobals
{
    private readonly List<CellOutput> _outputs = [];

    internal List<CellOutput> Outputs => _outputs;

    /// <summary>Shows <paramref name="value"/> as a cell output: HTML when it is HTML or has a <c>ToHtml()</c>, text otherwise.</summary>
    public void display(object? value) => _outputs.Add(CellOutput.Display(value));

    /// <summary>Marks <paramref name="html"/> as HTML for <see cref="display"/>.</summary>
    public HtmlString HTML(string html) => new(html);
}

/// <summary>A string to be shown as HTML.</summary>
public sealed record HtmlString(string Html)
{
    /// <inheritdoc />
    public override string ToString() => Html;
}
