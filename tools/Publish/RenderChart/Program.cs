// dotnet run --project tools/Publish/RenderChart -- <chart.html> <out.png> [width of a chart that sets none; 1000]
// dotnet run --project tools/Publish/RenderChart -- which-browser
// Draws the chart at its own size (its layout's width and height), without plotly's toolbar, networking off; the
// browser is the one PooledHttp.Workshop.Charts.ChromiumLocator finds (CHROME_PATH overrides). which-browser prints
// that browser, or says what to install and exits 1.
using PooledHttp.Publishing;
using System.CommandLine;
using PooledHttp.Tools;
using PooledHttp.Workshop.Charts;

var chart = new Argument<string>("chart.html") { Description = "A saved chart (a run's charts/*.html)." }.RejectingUnknownOptions();
var picture = new Argument<string>("out.png") { Description = "The picture to write." }.RejectingUnknownOptions();
var width = new Argument<int>("width")
{
    Description = "The width of a chart whose layout sets none.",
    Arity = ArgumentArity.ZeroOrOne,
    DefaultValueFactory = _ => ChartPicture.DefaultWidth,
    CustomParser = result =>
    {
        if (int.TryParse(result.Tokens[0].Value, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out int pixels) && pixels > 0)
        {
            return pixels;
        }

        result.AddError($"The width is a number of pixels above 0, not '{result.Tokens[0].Value}'.");
        return ChartPicture.DefaultWidth;
    },
};
var whichBrowser = new Command("which-browser", "Prints the browser the pictures are drawn with, or says what to install and exits 1.");
whichBrowser.SetAction(_ =>
{
    BrowserLookup lookup = ChromiumLocator.Locate();
    (lookup.Found ? Console.Out : Console.Error).WriteLine(lookup.Message);
    return lookup.Found ? 0 : 1;
});
var command = new RootCommand("Draws one saved chart to a PNG at the chart's own size, without plotly's toolbar, networking off, with headless Chromium, Chrome or Edge (CHROME_PATH overrides).")
{
    chart, picture, width, whichBrowser,
};
command.SetAction(async (parsed, cancel) =>
{
    string from = parsed.GetValue(chart)!, to = parsed.GetValue(picture)!;
    try
    {
        (int w, int h) = await ChartPicture.RenderAsync(await File.ReadAllTextAsync(from, cancel), to, parsed.GetValue(width));
        Console.WriteLine($"Rendered {to} ({w} x {h})");
        return 0;
    }
    catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
    {
        Console.Error.WriteLine($"{from}: {e.Message}");
        return 1;
    }
});
return await ToolCommandLine.InvokeAsync(command, args);
