namespace PooledHttp.Notebooks;

/// <summary>
/// Something a notebook shows as HTML: a chart or a results table. Notebooks display it with
/// <c>display(HTML(view.ToHtml()))</c>, which works the same in the .NET Interactive kernel and in
/// the headless runner.
/// </summary>
public interface IHtmlView
{
    /// <summary>The HTML fragment to display in a notebook output.</summary>
    string ToHtml();
}
