// The second cell of every chapter loads this file, once workshop.csx (the first cell) has built the kit:
// `#load "kit.csx"`, then the chapter's own `using` lines. It cannot be part of workshop.csx: a cell's #r
// lines are resolved when the cell compiles, before that cell's build has run.
//
// A loaded file's #r lines and statements reach the notebook; its `using` directives do not (what the kernel
// does: the runner, which hosts that kernel, shows it in KernelHostTests). So this file names
// every type in full, and each chapter names the namespaces it uses.

#r "../artifacts/notebook-bin/PooledHttp.dll"
#r "../artifacts/notebook-bin/PooledHttp.Workshop.dll"
#r "../artifacts/notebook-bin/PooledHttp.Workshop.Benchmarks.dll"
#r "../artifacts/notebook-bin/PooledHttp.Workshop.Server.dll"
#r "../artifacts/notebook-bin/PooledHttp.Workshop.LoadProbe.dll"
#r "../artifacts/notebook-bin/PooledHttp.Workshop.Exercising.dll"
#r "../artifacts/notebook-bin/Microsoft.Extensions.DependencyInjection.Abstractions.dll"
#r "../artifacts/notebook-bin/Microsoft.Extensions.DependencyInjection.dll"
#r "../artifacts/notebook-bin/Microsoft.Extensions.Http.dll"
#r "../artifacts/notebook-bin/Plotly.NET.dll"
#r "../artifacts/notebook-bin/Plotly.NET.CSharp.dll"

// HTML("...") in a cell finds this before the kernel's own Kernel.HTML (a cell's names are looked up in the earlier
// cells and loaded files first, then in its `using static` imports). The kernel's returns an IHtmlContent of
// Microsoft.AspNetCore.Html.Abstractions 2.3.0.0, the version Microsoft.DotNet.Interactive was built against, while the
// kernel runs on ASP.NET Core's 10.0.0.0: every cell that called it compiled with warning CS1701 on stderr. This one
// returns a kit type, built against the framework's copy, and shows the same way, as text/html.
static PooledHttp.Workshop.Notebooks.HtmlFragment HTML(string html) => new(html);

// Charts: plotly.js from the kit (no network) on the page, and the kernel told to draw every Plotly.NET chart
// with it: the job of Plotly.NET.Interactive, which cannot draw in the kernel (docs/dependencies.md says why).
Microsoft.DotNet.Interactive.Kernel.display(HTML(PooledHttp.Workshop.Charts.PlotlyHtml.Script()));
Microsoft.DotNet.Interactive.Formatting.Formatter.Register<Plotly.NET.GenericChart>(
    (chart, writer) => writer.Write(PooledHttp.Workshop.Charts.PlotlyHtml.Of(chart)), "text/html");
