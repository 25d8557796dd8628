namespace PooledHttp.Workshop.Notebooks;

/// <summary>
/// A piece of HTML for a notebook output, as a kit type: what <c>HTML(...)</c> returns in the notebooks.
/// </summary>
/// <remarks>
/// notebooks/kit.csx declares <c>HTML(string)</c> to return this, in place of the kernel's own
/// <c>Kernel.HTML</c>, which returns an <c>IHtmlContent</c> of Microsoft.AspNetCore.Html.Abstractions 2.3.0.0, the
/// version Microsoft.DotNet.Interactive was built against. The kernel runs on ASP.NET Core's shared framework, whose
/// copy is 10.0.0.0, so every cell that called the kernel's <c>HTML</c> compiled with warning CS1701. The kit is
/// built against the framework's copy, so a cell that uses this type names no older version. Both are written
/// as <c>text/html</c>.
/// </remarks>
public sealed class HtmlFragment(string html) : IHtmlView
{
    /// <inheritdoc />
    public string ToHtml() => html;

    /// <summary>The HTML itself, as the kernel's <c>HtmlString</c> gives it.</summary>
    public override string ToString() => html;
}
