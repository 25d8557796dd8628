extern alias runner;

using runner::NotebookRunner;

namespace PooledHttp.Tests.Runner;

/// <summary>The runner's console: progress updates in place on a terminal, one line each in a log.</summary>
public class ProgressConsoleTests
{
    private const string InPlace = "\r\u001b[K";

    private static string Written(bool redirected, int width, params string[] lines)
    {
        var inner = new StringWriter { NewLine = "\n" };
        var console = new ProgressConsole(inner, redirected, () => width);
        foreach (string line in lines)
        {
            console.WriteLine(line);
        }

        return inner.ToString();
    }

    [Fact]
    public void In_a_log_each_update_stays_a_line_of_its_own()
        => Assert.Equal(
            "-- cell 3\n   [update] case 1 of 2 · 0:10 elapsed\n   [update] case 2 of 2 · 0:20 elapsed\n   done in 21.0 s\n",
            Written(redirected: true, width: 80, "-- cell 3", "   [update] case 1 of 2 · 0:10 elapsed", "   [update] case 2 of 2 · 0:20 elapsed", "   done in 21.0 s"));

    [Fact]
    public void On_a_terminal_each_update_replaces_the_last_and_the_next_line_starts_below_it()
        => Assert.Equal(
            $"-- cell 3\n{InPlace}   [update] case 1 of 2 · 0:10 elapsed{InPlace}   [update] case 2 of 2 · 0:20 elapsed\n   done in 21.0 s\n",
            Written(redirected: false, width: 80, "-- cell 3", "   [update] case 1 of 2 · 0:10 elapsed", "   [update] case 2 of 2 · 0:20 elapsed", "   done in 21.0 s"));

    [Fact]
    public void On_a_terminal_an_update_is_cut_to_the_width_so_it_never_wraps()
        => Assert.Equal(
            $"{InPlace}   [update] case 1 of 2 · 0:10\nnext\n", // the terminal's width less one column
            Written(redirected: false, width: 31, "   [update] case 1 of 2 · 0:10 elapsed", "next"));
}
