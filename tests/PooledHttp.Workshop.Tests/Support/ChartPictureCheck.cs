namespace PooledHttp.Tests.Support;

/// <summary>
/// What a whole chart picture looks like: no scroll bar, a white border all round (a chart's paper is white and plotly
/// keeps its labels inside the margins, so anything but white at the edge is a cut label), and no toolbar.
/// </summary>
internal static class ChartPictureCheck
{
    /// <summary>How many pixels deep the border must be white.</summary>
    private const int Border = 2;

    /// <summary>How far from the bottom and right edges a scroll bar is drawn (Chromium's are 15 px).</summary>
    private const int ScrollBar = 16;

    /// <summary>Where plotly's toolbar sits: the top right corner, above the title's line.</summary>
    private const int ToolbarHeight = 30, ToolbarWidth = 320;

    /// <summary>Why <paramref name="picture"/> is not a whole chart, or null when it is.</summary>
    public static string? Problems(PngPixels picture)
    {
        var problems = new List<string>();
        // A scroll bar spans most of its edge; nothing in a chart's margin does.
        if (Enumerable.Range(picture.Height - ScrollBar, ScrollBar).FirstOrDefault(y => y >= 0 && NonWhite(picture, 0, picture.Width, y, y + 1) > picture.Width / 2, -1) is >= 0 and var row)
        {
            problems.Add($"row {row} is mostly grey: a horizontal scroll bar (the chart is wider than the picture)");
        }

        if (Enumerable.Range(picture.Width - ScrollBar, ScrollBar).FirstOrDefault(x => x >= 0 && NonWhite(picture, x, x + 1, 0, picture.Height) > picture.Height / 2, -1) is >= 0 and var column)
        {
            problems.Add($"column {column} is mostly grey: a vertical scroll bar (the chart is taller than the picture)");
        }

        if (FirstNonWhite(picture, 0, picture.Width, picture.Height - Border, picture.Height) is { } bottom)
        {
            problems.Add($"the bottom edge is not white at ({bottom.X}, {bottom.Y}): labels cut at the bottom");
        }

        if (FirstNonWhite(picture, picture.Width - Border, picture.Width, 0, picture.Height) is { } right)
        {
            problems.Add($"the right edge is not white at ({right.X}, {right.Y}): labels cut at the right");
        }

        if (FirstNonWhite(picture, 0, Border, 0, picture.Height) is { } left)
        {
            problems.Add($"the left edge is not white at ({left.X}, {left.Y}): something is cut at the left");
        }

        if (FirstNonWhite(picture, 0, picture.Width, 0, Border) is { } top)
        {
            problems.Add($"the top edge is not white at ({top.X}, {top.Y}): something is cut at the top");
        }

        if (FirstNonWhite(picture, Math.Max(0, picture.Width - ToolbarWidth), picture.Width - Border, Border, Math.Min(ToolbarHeight, picture.Height)) is { } toolbar)
        {
            problems.Add($"the top right corner is not white at ({toolbar.X}, {toolbar.Y}): plotly's toolbar is drawn");
        }

        return problems.Count == 0 ? null : string.Join("; ", problems);
    }

    private static int NonWhite(PngPixels picture, int x0, int x1, int y0, int y1)
    {
        int count = 0;
        for (int y = y0; y < y1; y++)
        {
            for (int x = x0; x < x1; x++)
            {
                count += IsWhite(picture[x, y]) ? 0 : 1;
            }
        }

        return count;
    }

    // Near white: anti-aliasing of the white paper against itself never strays further.
    private static bool IsWhite((byte R, byte G, byte B) pixel) => pixel.R >= 250 && pixel.G >= 250 && pixel.B >= 250;

    private static (int X, int Y)? FirstNonWhite(PngPixels picture, int x0, int x1, int y0, int y1)
    {
        for (int y = Math.Max(0, y0); y < Math.Min(picture.Height, y1); y++)
        {
            for (int x = Math.Max(0, x0); x < Math.Min(picture.Width, x1); x++)
            {
                if (!IsWhite(picture[x, y]))
                {
                    return (x, y);
                }
            }
        }

        return null;
    }
}
