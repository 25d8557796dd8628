using System.Text.RegularExpressions;

namespace NotebookRunner;

/// <summary>
/// Chapters by number, as their file names begin: <c>04</c> is <c>notebooks/04-pooled-buffers.ipynb</c>,
/// <c>04a</c> its companion; a leading zero may be left out (<c>4</c>, <c>4a</c>).
/// </summary>
internal static partial class Chapters
{
    /// <summary>The chapters in <paramref name="folder"/>: each notebook whose name starts with a number and a dash, by number.</summary>
    public static IReadOnlyList<(string Number, string Path)> In(string folder)
        => [.. Directory.EnumerateFiles(folder, "*.ipynb")
            .Select(path => (Match: Prefix().Match(Path.GetFileName(path)), Path: path))
            .Where(c => c.Match.Success)
            .Select(c => (c.Match.Groups[1].Value, c.Path))
            .OrderBy(c => c.Value, StringComparer.Ordinal)];

    /// <summary>Whether <paramref name="word"/> is written as a chapter number rather than a path.</summary>
    public static bool IsNumber(string word) => Number().IsMatch(word);

    /// <summary>The notebook of chapter <paramref name="number"/> in <paramref name="folder"/>, or null when there is none.</summary>
    public static string? Find(string folder, string number)
    {
        string wanted = char.IsDigit(number.Length > 1 ? number[1] : 'x') ? number : "0" + number;
        return In(folder).FirstOrDefault(c => c.Number.Equals(wanted, StringComparison.OrdinalIgnoreCase)).Path;
    }

    /// <summary>Says that there is no chapter <paramref name="number"/> and lists the ones there are.</summary>
    public static string Unknown(string folder, string number)
        => $"No chapter '{number}'. Run a chapter by its number or a notebook by its path; the chapters are:{Environment.NewLine}"
            + string.Join(Environment.NewLine, In(folder).Select(c => $"  {c.Number,-4}{Path.GetFileName(c.Path)}"));

    [GeneratedRegex(@"^(\d{2}[a-z]?)-.*\.ipynb$", RegexOptions.IgnoreCase)]
    private static partial Regex Prefix();

    [GeneratedRegex(@"^\d{1,2}[a-z]?$", RegexOptions.IgnoreCase)]
    private static partial Regex Number();
}
