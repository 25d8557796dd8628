#if NET10_0_OR_GREATER
using System.Text.Encodings.Web;
using Microsoft.AspNetCore.Html;
#endif

namespace PooledHttp.Notebooks;

/// <summary>
/// Something a notebook shows as HTML: a chart or a results table. It is an <c>IHtmlContent</c>, which
/// the .NET Interactive kernel's HTML formatter writes as HTML (and so does the headless runner), so a
/// cell shows it with a plain <c>display(view)</c> in either host.
/// </summary>
public interface IHtmlView
#if NET10_0_OR_GREATER
    : IHtmlContent
#endif
{
    /// <summary>The HTML fragment to display in a notebook output.</summary>
    string ToHtml();

#if NET10_0_OR_GREATER
    /// <inheritdoc />
    void IHtmlContent.WriteTo(TextWriter writer, HtmlEncoder encoder)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.Write(ToHtml());
    }
#endif
}
