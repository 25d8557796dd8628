extern alias runner;

using System.Text.Json.Nodes;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Runner;

/// <summary>
/// The runner hosts the .NET Interactive C# kernel itself (Microsoft.DotNet.Interactive.CSharp) and records what it
/// sends as Jupyter records it. These tests hold the runner's part: the kernel composed as the dotnet-interactive tool
/// composes it (its imports, its helpers, #load and #r relative to the notebook), its events turned into nbformat
/// outputs as dotnet/interactive's Jupyter front end and nbclient turn them (order, streams, diagnostics on stderr,
/// display ids and their updates, execute results), .dib read by the kernel's Documents library, a process per
/// notebook, and a failing cell reported with the kernel's own diagnostic.
/// </summary>
public class KernelHostTests
{
    [Fact]
    public async Task A_cell_that_does_not_compile_fails_the_run_with_the_kernels_diagnostic_and_an_error_output_as_Jupyter_saves_it()
    {
        // The kernel imports System.Net.Http for no cell (CSharpKernel.cs's default imports): HttpClient is CS0246.
        // dotnet/interactive, src/Microsoft.DotNet.Interactive.Jupyter/ExecuteRequestHandler.cs: the diagnostics go to
        // stderr, and the error output of a compilation failure says only "compilation error".
        var scratch = new ScratchNotebooks();
        string nb = scratch.Write("missing", "var client = new HttpClient();");
        (int exit, _, string stderr) = await scratch.RunAsync(nb);
        Assert.NotEqual(0, exit);
        Assert.Contains("cell 1: (1,18): error CS0246: The type or namespace name 'HttpClient' could not be found", stderr, StringComparison.Ordinal);
        IReadOnlyList<JsonObject> outputs = ScratchNotebooks.Outputs(scratch.ExecutedCells("missing")[0]);
        Assert.Equal(["stream", "error"], outputs.Select(o => (string?)o["output_type"]));
        Assert.Contains("CS0246", (string?)outputs[0]["text"], StringComparison.Ordinal);
        Assert.Equal("compilation error", (string?)outputs[1]["evalue"]);
    }

    [Fact]
    public async Task A_warning_is_stderr_text_of_its_cell_as_Jupyter_shows_it_and_the_cell_still_runs()
    {
        // The kernel compiles cells with no nullable context, so `string?` is warning CS8632 (DESIGN.md), published as
        // DiagnosticsProduced; Jupyter's .NET kernel sends a cell's diagnostics as stderr text (ExecuteRequestHandler.cs).
        var scratch = new ScratchNotebooks();
        string nb = scratch.Write("nullable", "string? name = null;\nConsole.WriteLine(name is null);");
        (int exit, string stdout, string stderr) = await scratch.RunAsync(nb);
        Assert.True(exit == 0, stderr + stdout);
        IReadOnlyList<JsonObject> outputs = ScratchNotebooks.Outputs(scratch.ExecutedCells("nullable")[0]);
        Assert.Contains(outputs, o => (string?)o["name"] == "stderr" && ((string?)o["text"])!.Contains("warning CS8632", StringComparison.Ordinal));
        Assert.Contains(outputs, o => (string?)o["name"] == "stdout" && (string?)o["text"] == "True\n");
    }

    [Fact]
    public async Task A_dib_notebook_runs_and_comes_back_as_an_executed_ipynb()
    {
        // The kernel runs .dib files too (dotnet/interactive, src/Microsoft.DotNet.Interactive.Documents,
        // CodeSubmission.Parse): `#!meta` and its JSON line are metadata, each `#!csharp` or `#!markdown` line starts
        // a cell, and `#!time` is a magic command inside a cell, not a cell.
        var scratch = new ScratchNotebooks();
        scratch.WriteFile("plain.dib", string.Join("\n",
            "#!meta", "", "{\"kernelInfo\":{\"defaultKernelName\":\"csharp\",\"items\":[{\"name\":\"csharp\"}]}}", "",
            "#!markdown", "", "# A dib", "", "#!csharp", "", "var answer = 6 * 7;", "", "#!csharp", "", "Console.WriteLine(answer);", ""));
        (int exit, string stdout, string stderr) = await scratch.RunAsync(Path.Combine(scratch.Folder, "plain.dib"));
        Assert.True(exit == 0, stderr + stdout);
        var executed = (JsonObject)JsonNode.Parse(File.ReadAllText(scratch.ExecutedPath("plain")))!;
        JsonObject[] cells = [.. ((JsonArray)executed["cells"]!).OfType<JsonObject>()];
        Assert.Equal(["markdown", "code", "code"], cells.Select(c => (string?)c["cell_type"]));
        Assert.Contains("# A dib", cells[0]["source"]!.ToJsonString(), StringComparison.Ordinal);
        Assert.Contains("42", Text(cells[2]), StringComparison.Ordinal);
        await NbformatValidator.AssertValidAsync(scratch.ExecutedPath("plain"));
    }

    [Fact]
    public async Task A_loaded_scripts_functions_reach_later_cells_and_its_usings_do_not()
    {
        var scratch = new ScratchNotebooks();
        scratch.WriteFile("setup.csx", "using System.Diagnostics;\nstatic int Answer() => 42;\nvar watch = Stopwatch.StartNew();\n");
        string nb = scratch.Write("load", "#load \"setup.csx\"", "Console.WriteLine(Answer());\nConsole.WriteLine(watch.IsRunning);", "var again = new Stopwatch();");
        (int exit, _, string stderr) = await scratch.RunAsync(nb);
        IReadOnlyList<JsonObject> cells = scratch.ExecutedCells("load");
        Assert.Contains("42", Text(cells[1]), StringComparison.Ordinal);
        Assert.Contains("True", Text(cells[1]), StringComparison.Ordinal);
        Assert.NotEqual(0, exit);
        Assert.Contains("cell 3", stderr, StringComparison.Ordinal);
        Assert.Contains("'Stopwatch'", stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_loaded_scripts_references_reach_later_cells_and_its_display_shows_in_the_loading_cell()
    {
        // The kernel: a #load'ed file's #r reaches later cells. notebooks/kit.csx relies on it
        // (its #r lines serve every chapter), and on display(...) named in full from a loaded file, where the kernel's
        // `using static Microsoft.DotNet.Interactive.Kernel` need not reach.
        var scratch = new ScratchNotebooks();
        string library = typeof(PooledHttp.Buffers.BodyPool).Assembly.Location;
        scratch.WriteFile("refs.csx", $"#r \"{library}\"\nMicrosoft.DotNet.Interactive.Kernel.display(\"loaded\");\n");
        string nb = scratch.Write("load-refs", "#load \"refs.csx\"", "Console.WriteLine(typeof(PooledHttp.Buffers.BodyPool).Name);");
        (int exit, string stdout, string stderr) = await scratch.RunAsync(nb);
        Assert.True(exit == 0, stderr + stdout);
        IReadOnlyList<JsonObject> cells = scratch.ExecutedCells("load-refs");
        Assert.Equal("loaded", (string?)ScratchNotebooks.Outputs(cells[0]).Single()["data"]!["text/plain"]);
        Assert.Contains("BodyPool", Text(cells[1]), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_display_handle_does_not_update_its_output_as_in_the_kernel_and_HTML_in_a_cell_warns_CS1701()
    {
        // dotnet/interactive, src/Microsoft.DotNet.Interactive.Formatting/DisplayExtensions.cs: Display raises its
        // formatter event with `new(value, formattedValues)` and returns `new DisplayedValue(value, formattedValues)`,
        // another object with another DisplayId (DisplayedValue.cs: a Guid made on first use). Its Update publishes
        // DisplayedValueUpdated for an id no output carries: Jupyter changes nothing, and neither may the runner.
        // HTML() returns the IHtmlContent of Microsoft.AspNetCore.Html.Abstractions 2.3.0.0, the version the kernel was
        // built against, while the kernel's process holds ASP.NET Core's 10.0.0.0: a cell that names it makes the
        // compiler unify the two, which it reports as warning CS1701, stderr text under the cell (so the chapters show
        // HTML through the kit's own views instead).
        var scratch = new ScratchNotebooks();
        string nb = scratch.Write("display",
            "var handle = display(\"first\");\nhandle.Update(\"second\");\nhandle.Update(\"last\");\nMicrosoft.AspNetCore.Html.IHtmlContent html = HTML(\"<b>bold</b>\");\ndisplay(html);");
        (int exit, string stdout, string stderr) = await scratch.RunAsync(nb);
        Assert.True(exit == 0, stderr + stdout);
        IReadOnlyList<JsonObject> outputs = ScratchNotebooks.Outputs(scratch.ExecutedCells("display")[0]);
        Assert.Equal(["display_data", "display_data", "stream"], outputs.Select(o => (string?)o["output_type"]));
        Assert.Equal("first", (string?)outputs[0]["data"]!["text/plain"]);
        Assert.Equal("<b>bold</b>", (string?)outputs[1]["data"]!["text/html"]);
        Assert.Contains("warning CS1701: Assuming assembly reference 'Microsoft.AspNetCore.Html.Abstractions, Version=2.3.0.0", (string?)outputs[2]["text"], StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_registered_HTML_formatter_draws_its_type_and_subtypes_and_the_most_specific_type_wins()
    {
        // dotnet/interactive, src/Microsoft.DotNet.Interactive.Formatting/Formatter.cs: Register<T>(Action<T, TextWriter>,
        // string mimeType = PlainTextFormatter.MimeType) pushes a formatter for typeof(T); TryFindPreferredFormatter keeps
        // those whose type IsRelevantFormatterFor the value's type (a base type is relevant to its subtypes) and sorts
        // the most specific type first, the latest registration first among equals. DefaultMimeType is text/html, so a
        // plain display(value) of a non-string uses the HTML formatter. Plotly.NET's GenericChart is such a case: its
        // values are subtypes (GenericChart+Chart, GenericChart+MultiChart).
        var scratch = new ScratchNotebooks();
        string nb = scratch.Write("formatter",
            "using Microsoft.DotNet.Interactive.Formatting;\n"
            + "Formatter.Register<Exception>((e, writer) => writer.Write(\"<i>any exception</i>\"), \"text/html\");\n"
            + "Formatter.Register<ArgumentException>((e, writer) => writer.Write(\"<b>old</b>\"), \"text/html\");\n"
            + "Formatter.Register<ArgumentException>((e, writer) => writer.Write(\"<b>\" + e.ParamName + \"</b>\"), \"text/html\");\n"
            + "display(new ArgumentNullException(\"size\"));\n"
            + "display(new InvalidOperationException());\n"
            + "display(\"text stays text\");");
        (int exit, string stdout, string stderr) = await scratch.RunAsync(nb);
        Assert.True(exit == 0, stderr + stdout);
        IReadOnlyList<JsonObject> outputs = ScratchNotebooks.Outputs(scratch.ExecutedCells("formatter")[0]);
        Assert.Equal(3, outputs.Count);
        Assert.Equal("<b>size</b>", (string?)outputs[0]["data"]!["text/html"]); // subtype of the most specific registration, latest wins
        Assert.Equal("<i>any exception</i>", (string?)outputs[1]["data"]!["text/html"]);
        Assert.Equal("text stays text", (string?)outputs[2]["data"]!["text/plain"]);
    }

    [Fact]
    public async Task The_host_carries_FSharp_Core_10_0_as_the_kernel_does_and_the_chart_libraries_still_draw()
    {
        // dotnet/interactive, Directory.Packages.props: FSharp.Core 10.0.103, which its F# kernel puts in the kernel
        // process. Plotly.NET 6.0.0 references FSharp.Core 10.1.0.0 and Giraffe.ViewEngine 5.0.0.0: left to the host,
        // Giraffe binds to the host's 10.0 and Plotly.NET to 10.1, and the first chart fails. notebooks/chart-libraries.csx
        // loads them into one context of their own; this runs a chart through it in a host that has the kernel's FSharp.Core.
        var scratch = new ScratchNotebooks();
        string bin = AppContext.BaseDirectory; // the kit and the chart libraries, as the notebooks' build folder holds them
        string script = Path.Combine(PooledHttp.Tests.Repository.RepositoryTests.FindRoot(), "notebooks", "chart-libraries.csx");
        string nb = scratch.Write("fsharp",
            $"#load \"{script}\"\nLoadChartLibrariesTogether(@\"{bin}\");",
            $"#r \"{Path.Combine(bin, "PooledHttp.Workshop.dll")}\"\n#r \"{Path.Combine(bin, "Plotly.NET.dll")}\"\n#r \"{Path.Combine(bin, "Plotly.NET.CSharp.dll")}\"\n"
            + "Console.WriteLine(\"host: \" + System.Reflection.Assembly.Load(\"FSharp.Core\").GetName().Version);\n"
            + "Plotly.NET.GenericChart chart = Plotly.NET.CSharp.Chart.Column<double, string, string>(new[] { 1.0, 2 }, Keys: new[] { \"a\", \"b\" });\n"
            + "Console.WriteLine(\"chart: \" + System.Runtime.Loader.AssemblyLoadContext.GetLoadContext(chart.GetType().Assembly)!.Name + \", \" + PooledHttp.Workshop.Charts.PlotlyHtml.Of(chart).Contains(\"Plotly.newPlot(\"));");
        (int exit, string stdout, string stderr) = await scratch.RunAsync(nb);
        Assert.True(exit == 0, stderr + stdout);
        string printed = Text(scratch.ExecutedCells("fsharp")[1]);
        Assert.True(printed.Contains("host: 10.0.0.0", StringComparison.Ordinal), printed);
        Assert.Contains("chart: chart libraries, True", printed, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_chart_library_the_host_loaded_first_stops_the_setup_with_a_sentence_that_says_what_to_do()
    {
        // A Giraffe.ViewEngine loaded by the host before chart-libraries.csx runs would bind to the host's FSharp.Core
        // and break the first chart; the script refuses at setup, naming it, instead of failing at the chart.
        var scratch = new ScratchNotebooks();
        string bin = AppContext.BaseDirectory;
        string script = Path.Combine(PooledHttp.Tests.Repository.RepositoryTests.FindRoot(), "notebooks", "chart-libraries.csx");
        string nb = scratch.Write("early",
            $"System.Reflection.Assembly.LoadFrom(@\"{Path.Combine(bin, "Giraffe.ViewEngine.dll")}\");",
            $"#load \"{script}\"\nLoadChartLibrariesTogether(@\"{bin}\");");
        (int exit, string stdout, string stderr) = await scratch.RunAsync(nb);
        Assert.NotEqual(0, exit);
        Assert.Contains("Giraffe.ViewEngine was loaded before the chart libraries", stderr + stdout, StringComparison.Ordinal);
        Assert.Contains("Restart the kernel", stderr + stdout, StringComparison.Ordinal);
    }

    [Fact]
    public void The_runner_and_the_kit_agree_on_where_a_notebook_summary_goes()
    {
        // The only thing the runner reads of the kit's is this file, by field name: the same folder on both sides.
        Assert.Equal(PooledHttp.Workshop.Notebooks.RunSummary.Folder, runner::NotebookRunner.NotebookSummary.Folder);
    }

    [Fact]
    public async Task The_contexts_display_handle_updates_its_output_in_place_as_in_the_kernel()
    {
        // dotnet/interactive, src/Microsoft.DotNet.Interactive/KernelInvocationContextExtensions.cs: Display builds one
        // DisplayedValue, publishes DisplayedValueProduced with its DisplayId and returns that same object, so its
        // Update publishes DisplayedValueUpdated with the id of the output it made: the front end replaces it.
        var scratch = new ScratchNotebooks();
        string nb = scratch.Write("live",
            "var context = Microsoft.DotNet.Interactive.KernelInvocationContext.Current;\nvar line = Microsoft.DotNet.Interactive.KernelInvocationContextExtensions.Display(context, \"first\");\nline.Update(\"second\");\nline.Update(\"last\");");
        (int exit, string stdout, string stderr) = await scratch.RunAsync(nb);
        Assert.True(exit == 0, stderr + stdout);
        IReadOnlyList<JsonObject> outputs = ScratchNotebooks.Outputs(scratch.ExecutedCells("live")[0]);
        Assert.Single(outputs);
        Assert.Equal("last", (string?)outputs[0]["data"]!["text/plain"]);
    }

    [Fact]
    public async Task Outputs_keep_their_order_stderr_is_its_own_stream_and_a_trailing_expression_is_an_execute_result()
    {
        var scratch = new ScratchNotebooks();
        string nb = scratch.Write("order",
            "Console.WriteLine(\"out 1\");\ndisplay(\"shown\");\nConsole.Error.WriteLine(\"err 1\");\nConsole.WriteLine(\"out 2\");",
            "Console.WriteLine(\"no result\");",
            "6 * 7");
        (int exit, string stdout, string stderr) = await scratch.RunAsync(nb);
        Assert.True(exit == 0, stderr + stdout);
        IReadOnlyList<JsonObject> cells = scratch.ExecutedCells("order");
        string[] kinds = ScratchNotebooks.Outputs(cells[0]).Select(o => (string)o["output_type"]! + ":" + ((string?)o["name"] ?? (string?)o["data"]?["text/plain"])).ToArray();
        Assert.Equal(["stream:stdout", "display_data:shown", "stream:stderr", "stream:stdout"], kinds);
        Assert.DoesNotContain(ScratchNotebooks.Outputs(cells[1]), o => (string?)o["output_type"] == "execute_result");
        JsonObject result = Assert.Single(ScratchNotebooks.Outputs(cells[2]));
        Assert.Equal("execute_result", (string?)result["output_type"]);
        Assert.Equal(3, (int)result["execution_count"]!);
        Assert.Equal(3, (int)cells[2]["execution_count"]!);
        // A browser front end's formatters (KernelBuilder.SetUpFormatters): HTML by default, so 42 is an HTML <pre>.
        Assert.Contains("<pre>42</pre>", (string?)result["data"]!["text/html"], StringComparison.Ordinal);
        await NbformatValidator.AssertValidAsync(scratch.ExecutedPath("order"));
    }

    [Fact]
    public async Task Blank_cells_are_skipped_and_streams_and_errors_are_saved_as_nbconvert_saves_them()
    {
        // nbclient sends no blank cell and gives it no execution count; nbconvert's coalesce_streams drops text a carriage
        // return went back over; ExecuteRequestHandler.cs (the tool's Jupyter handler) sends the failure's message and
        // then the exception and each line of its stack trace.
        var scratch = new ScratchNotebooks();
        string nb = scratch.Write("jupyter-rules",
            "var other = 1;",
            "   ",
            "Console.Write(\"10%\\r20%\\r30%\\nnext\\n\");",
            "1 + 1",
            "static void Fails() => throw new InvalidOperationException(\"on purpose\");\nFails();");
        (int exit, string stdout, string stderr) = await scratch.RunAsync(nb);
        Assert.Equal(1, exit);
        IReadOnlyList<JsonObject> cells = scratch.ExecutedCells("jupyter-rules");
        Assert.Empty(ScratchNotebooks.Outputs(cells[0]));
        Assert.Empty(ScratchNotebooks.Outputs(cells[1]));
        Assert.Null((int?)cells[1]["execution_count"]);
        JsonObject stream = Assert.Single(ScratchNotebooks.Outputs(cells[2]));
        Assert.Equal("30%\nnext\n", (string?)stream["text"]);
        Assert.Equal(3, (int)cells[3]["execution_count"]!);
        Assert.Equal(3, (int)ScratchNotebooks.Outputs(cells[3]).Single()["execution_count"]!);
        JsonObject error = Assert.Single(ScratchNotebooks.Outputs(cells[4]));
        Assert.StartsWith("System.InvalidOperationException: on purpose", (string?)error["evalue"], StringComparison.Ordinal);
        string[] traceback = [.. ((JsonArray)error["traceback"]!).Select(l => (string?)l ?? string.Empty)];
        Assert.StartsWith("System.InvalidOperationException: on purpose", traceback[0], StringComparison.Ordinal);
        Assert.Contains(traceback.Skip(1), line => line.TrimStart().StartsWith("at ", StringComparison.Ordinal));
        Assert.Contains("cell 5: InvalidOperationException: on purpose", stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Each_notebook_gets_its_own_process_and_a_failure_does_not_stop_the_rest()
    {
        var scratch = new ScratchNotebooks();
        const string Probe = """
            Console.WriteLine($"pid {Environment.ProcessId} seen {AppContext.GetData("marker") ?? "nothing"}");
            AppContext.SetData("marker", "left behind");
            """;
        string first = scratch.Write("first", Probe);
        string failing = scratch.Write("failing", "throw new InvalidOperationException(\"on purpose\");");
        string third = scratch.Write("third", Probe);
        string seriesReport = Path.Combine(scratch.Output, "report.html");
        Directory.CreateDirectory(scratch.Output);
        await File.WriteAllTextAsync(seriesReport, "the series' report");
        (int exit, string stdout, string stderr) = await scratch.RunAsync(first, failing, third);

        // A run of some notebooks has a report of its own and leaves the series' report alone.
        Assert.Equal("the series' report", await File.ReadAllTextAsync(seriesReport));
        Assert.Contains("<section id=\"third\">", await File.ReadAllTextAsync(Path.Combine(scratch.Output, "report-first-failing-third.html")), StringComparison.Ordinal);

        Assert.Equal(1, exit);
        string one = Text(scratch.ExecutedCells("first")[0]);
        string three = Text(scratch.ExecutedCells("third")[0]);
        Assert.Contains("seen nothing", one, StringComparison.Ordinal);
        Assert.Contains("seen nothing", three, StringComparison.Ordinal); // no static state carried over
        Assert.NotEqual(one.Split(' ')[1], three.Split(' ')[1]); // another process

        // The summary names every notebook with its outcome, and the failure's cell and message.
        Assert.Matches(@"passed\s+[\d.]+ s\s+first", stdout);
        Assert.Matches(@"FAILED\s+[\d.]+ s\s+failing: cell 1: InvalidOperationException: on purpose", stdout);
        Assert.Matches(@"passed\s+[\d.]+ s\s+third", stdout);
        Assert.Contains("2 passed, 1 failed", stdout, StringComparison.Ordinal);
        Assert.Contains("failing", stderr, StringComparison.Ordinal);
    }

    private static string Text(JsonObject cell) => string.Concat(ScratchNotebooks.Outputs(cell).Select(o => o.ToJsonString()));
}
