using System.Text.Encodings.Web;
using Microsoft.AspNetCore.Html;

namespace PooledHttp.Workshop.Notebooks;

/// <summary>
/// Something a notebook shows as HTML: a results table, an exercise's verdict, a fragment of HTML
/// (<see cref="HtmlFragment"/>). It is an <c>IHtmlContent</c>, which the .NET Interactive kernel's HTML formatter
/// writes as HTML (and so does the headless runner), so a cell shows it with a plain <c>display(view)</c> in either host.
/// </summary>
public interface IHtmlView : IHtmlContent
{
    /// <summary>The HTML fragment to display in a notebook output.</summary>
    string ToHtml();

    /// <inheritdoc />
    void IHtmlContent.WriteTo(TextWriter writer, HtmlEncoder encoder)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.Write(ToHtml());
    }
}
