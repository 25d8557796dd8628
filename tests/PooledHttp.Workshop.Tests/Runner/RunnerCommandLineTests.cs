extern alias runner;

using runner::NotebookRunner;
using runner::PooledHttp.Tools;

namespace PooledHttp.Tests.Runner;

/// <summary>The runner's command line, parsed in this process: chapters by number, paths, options, help and errors.</summary>
public class RunnerCommandLineTests
{
    private static readonly string Chapters = Path.Combine(Repository.RepositoryTests.FindRoot(), "notebooks");

    /// <summary>Parses <paramref name="args"/> as the runner does; what its action was given, or null when it was not run.</summary>
    private static async Task<(int Exit, RunnerOptions? Options, string Output, string Error)> ParseAsync(params string[] args)
    {
        RunnerOptions? given = null;
        var output = new StringWriter();
        var error = new StringWriter();
        int exit = await ToolCommandLine.InvokeAsync(RunnerCommand.Create(Chapters, options =>
        {
            given = options;
            return Task.FromResult(7);
        }), args, output, error);
        return (exit, given, output.ToString(), error.ToString());
    }

    [Fact]
    public async Task A_chapter_is_run_by_the_number_its_file_name_begins_with_and_every_option_is_read()
    {
        (int exit, RunnerOptions? options, _, string error) = await ParseAsync("04", "4a", "09", "--quick", "--out", "some/folder", "--cell-timeout", "2.5");

        Assert.True(exit == 7, error);
        Assert.Equal(
            [Path.Combine(Chapters, "04-pooled-buffers.ipynb"), Path.Combine(Chapters, "04a-floor-and-peers.ipynb"), Path.Combine(Chapters, "09-your-service.ipynb")],
            options!.Notebooks);
        Assert.True(options.Quick);
        Assert.Equal("some/folder", options.Output);
        Assert.Equal(TimeSpan.FromMinutes(2.5), options.CellTimeout);
        Assert.False(options.Child);
    }

    [Fact]
    public async Task A_path_still_names_a_notebook_and_nothing_means_every_chapter_with_the_defaults()
    {
        string path = Path.Combine(Chapters, "02-the-5mb-download.ipynb");
        (_, RunnerOptions? byPath, _, _) = await ParseAsync(path);
        (_, RunnerOptions? none, _, _) = await ParseAsync();

        Assert.Equal([path], byPath!.Notebooks);
        Assert.Empty(none!.Notebooks);
        Assert.False(none.Quick);
        Assert.Null(none.Output);
        Assert.Equal(TimeSpan.FromMinutes(30), none.CellTimeout);
    }

    [Fact]
    public async Task An_unknown_chapter_fails_before_anything_runs_and_lists_the_chapters()
    {
        (int exit, RunnerOptions? options, _, string error) = await ParseAsync("12");

        Assert.Equal(ToolCommandLine.UsageError, exit);
        Assert.Null(options);
        Assert.Contains("No chapter '12'", error, StringComparison.Ordinal);
        Assert.Contains("04a 04a-floor-and-peers.ipynb", error, StringComparison.Ordinal);
        Assert.Contains("09  09-your-service.ipynb", error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--cell-timeout", "0", "--cell-timeout takes a number above 0, not '0'.")]
    [InlineData("--cell-timeout", "soon", "--cell-timeout takes a number above 0, not 'soon'.")]
    [InlineData("--quik", "04", "Unknown option '--quik'.")]
    [InlineData("04", "--out", "--out")]
    public async Task A_wrong_option_or_value_fails_with_exit_code_2_and_says_which(string first, string second, string said)
    {
        (int exit, RunnerOptions? options, string output, string error) = await ParseAsync(first, second);

        Assert.Equal(2, exit);
        Assert.Null(options);
        Assert.Empty(output);
        Assert.Contains(said, error, StringComparison.Ordinal);
        Assert.Contains("--help shows every argument and option.", error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--help")]
    [InlineData("-h")]
    [InlineData("04")] // help wins over everything else on the line
    public async Task Help_exits_0_with_every_option_and_the_by_number_form_on_standard_output(string first)
    {
        (int exit, RunnerOptions? options, string output, string error) = await ParseAsync(first, "--help");

        Assert.Equal(0, exit);
        Assert.Null(options);
        Assert.Empty(error);
        Assert.Contains("dotnet run --project tools/NotebookRunner -c Release -- 04", output, StringComparison.Ordinal);
        foreach (string option in new[] { "--quick", "--out", "--cell-timeout" })
        {
            Assert.Contains(option, output, StringComparison.Ordinal);
        }

        Assert.DoesNotContain(RunnerCommand.ChildFlag, output, StringComparison.Ordinal);
    }
}
