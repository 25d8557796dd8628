using PooledHttp.Publishing;
using System.Text.Json.Nodes;
using PooledHttp.Tests.Support;
using PooledHttp.Workshop.Charts;
using PooledHttp.Workshop.Notebooks;

namespace PooledHttp.Tests.Repository;

/// <summary>
/// The committed pictures are whole charts: each chapter page's picture is its chart at the chart's own size (as
/// <c>tools/Publish/RenderChapters</c> draws it), and none of them, nor the README's and the results page's, has a scroll bar,
/// a cut label or plotly's toolbar. Fails until the pictures are drawn again after a change to how they are drawn:
/// <c>dotnet run --project tools/Publish/RenderChapters -c Release -- RUN</c> and <c>tools/Publish/render-docs.sh RUN/charts</c>.
/// </summary>
public class ChapterPicturesTests
{
    private static readonly string Root = RepositoryTests.FindRoot();

    private const string Again = "draw the pictures again from the reference run: dotnet run --project tools/Publish/RenderChapters -c Release -- <run>, and tools/Publish/render-docs.sh <run>/charts";

    public static TheoryData<string, string> ChapterPictures()
    {
        var pictures = new TheoryData<string, string>();
        foreach (string notebook in Directory.GetFiles(Path.Combine(Root, ChapterRendering.NotebooksFolder), "*.ipynb").Order(StringComparer.Ordinal))
        {
            string name = Path.GetFileNameWithoutExtension(notebook);
            foreach ((string picture, _) in ChapterRendering.Charts(name, Stored(name)))
            {
                pictures.Add(name, picture);
            }
        }

        return pictures;
    }

    public static TheoryData<string> DocsPictures()
        => [.. Directory.GetFiles(Path.Combine(Root, "docs", "charts"), "*.png").Append(Path.Combine(Root, "docs", "journey.png")).Select(p => Path.GetRelativePath(Root, p).Replace('\\', '/')).Order(StringComparer.Ordinal)];

    [Theory]
    [MemberData(nameof(ChapterPictures))]
    public void A_chapter_pictures_its_chart_whole_at_the_charts_own_size(string name, string picture)
    {
        string html = ChapterRendering.Charts(name, Stored(name)).Single(c => c.Picture == picture).Html;
        PngPixels png = PngPixels.Read(Path.Combine(Root, ChapterRendering.PagesFolder, picture));

        (int width, int height) = ChartPicture.Size(html);
        Assert.True((png.Width, png.Height) == (width, height), $"{picture} is {png.Width} x {png.Height}, its chart {width} x {height}: {Again}.");
        Assert.True(ChartPictureCheck.Problems(png) is null, $"{picture}: {ChartPictureCheck.Problems(png)}; {Again}.");
    }

    [Theory]
    [MemberData(nameof(DocsPictures))]
    public void A_readme_or_results_picture_is_a_whole_chart(string picture)
    {
        PngPixels png = PngPixels.Read(Path.Combine(Root, picture));

        Assert.True(ChartPictureCheck.Problems(png) is null, $"{picture}: {ChartPictureCheck.Problems(png)}; {Again}.");
    }

    private static JsonObject Stored(string name)
        => (JsonObject)JsonNode.Parse(File.ReadAllText(Path.Combine(Root, ChapterRendering.NotebooksFolder, name + ".ipynb")))!;
}
