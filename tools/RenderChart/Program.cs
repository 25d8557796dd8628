// dotnet run --project tools/RenderChart -- <chart.html> <out.png> [width of a chart that sets none; 1000]
// dotnet run --project tools/RenderChart -- which-browser
// Draws the chart at its own size (its layout's width and height), without plotly's toolbar, networking off; the
// browser is the one PooledHttp.Workshop.Charts.ChromiumLocator finds (CHROME_PATH overrides). which-browser prints
// that browser, or says what to install and exits 1.
using System.Globalization;
using PooledHttp.Workshop.Charts;

if (args is ["which-browser"])
{
    BrowserLookup lookup = ChromiumLocator.Locate();
    (lookup.Found ? Console.Out : Console.Error).WriteLine(lookup.Message);
    return lookup.Found ? 0 : 1;
}

if (args.Length is < 2 or > 3 || (args.Length == 3 && !int.TryParse(args[2], NumberStyles.None, CultureInfo.InvariantCulture, out _)))
{
    Console.Error.WriteLine("usage: RenderChart <chart.html> <out.png> [width of a chart that sets none, 1000] | RenderChart which-browser");
    return 2;
}

int width = args.Length == 3 ? int.Parse(args[2], CultureInfo.InvariantCulture) : ChartPicture.DefaultWidth;
try
{
    (int w, int h) = await ChartPicture.RenderAsync(await File.ReadAllTextAsync(args[0]), args[1], width);
    Console.WriteLine($"Rendered {args[1]} ({w} x {h})");
    return 0;
}
catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
{
    Console.Error.WriteLine($"{args[0]}: {e.Message}");
    return 1;
}
