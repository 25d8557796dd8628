using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Runner;

/// <summary>The validator the notebook tests lean on accepts what Jupyter accepts and refuses what it refuses.</summary>
public class NbformatValidatorTests
{
    private const string Valid = """
        {"cells": [{"cell_type": "code", "execution_count": 1, "id": "a1", "metadata": {}, "outputs": [{"output_type": "stream", "name": "stdout", "text": ["hi\n"]}], "source": ["1 + 1"]},
                   {"cell_type": "markdown", "id": "b2", "metadata": {}, "source": ["# title"]}],
         "metadata": {"kernelspec": {"display_name": ".NET (C#)", "language": "C#", "name": ".net-csharp"}}, "nbformat": 4, "nbformat_minor": 5}
        """;

    [Fact]
    public async Task A_well_formed_notebook_passes()
    {
        Assert.Empty(await NbformatValidator.ErrorsAsync(Valid));
    }

    [Theory]
    [InlineData("\"outputs\": [{\"output_type\": \"stream\", \"name\": \"stdout\", \"text\": [\"hi\\n\"]}], ", "")] // a code cell must have outputs
    [InlineData("\"id\": \"a1\"", "\"id\": \"not a valid id!\"")] // ids are [a-zA-Z0-9-_]{1,64}
    [InlineData("\"output_type\": \"stream\"", "\"output_type\": \"display\"")] // no such output type
    [InlineData("\"execution_count\": 1", "\"execution_count\": \"one\"")]
    public async Task What_jupyter_refuses_fails(string from, string to)
    {
        string broken = Valid.Replace(from, to, StringComparison.Ordinal);
        Assert.NotEqual(Valid, broken);
        Assert.NotEmpty(await NbformatValidator.ErrorsAsync(broken));
    }

    [Fact]
    public async Task The_series_as_committed_is_valid()
    {
        string[] notebooks = Directory.GetFiles(Path.Combine(Repository.RepositoryTests.FindRoot(), "notebooks"), "*.ipynb");
        Assert.NotEmpty(notebooks);
        foreach (string notebook in notebooks)
        {
            await NbformatValidator.AssertValidAsync(notebook);
        }
    }
}
