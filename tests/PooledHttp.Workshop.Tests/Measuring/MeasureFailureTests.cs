using PooledHttp.Workshop.Measuring;
using PooledHttp.Workshop.Server;

using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Measuring;

[Collection(SerialTests.Name)]
public class MeasureFailureTests
{
    /// <summary>A class with nothing to measure: BenchmarkDotNet returns a summary with no reports.</summary>
    public class NothingToMeasure
    {
        public int Value { get; set; } = 42;
    }

    [Fact]
    public async Task A_run_that_produces_no_reports_throws_instead_of_returning_an_empty_table()
    {
        string output = Path.Combine(Path.GetTempPath(), "pooledhttp-tests", Guid.NewGuid().ToString("N"));
        new RunContext { Output = output }.SetForThisProcess();
        try
        {
            await using var server = LocalServer.Start();
            var error = Assert.Throws<BenchmarkFailedException>(() => Measure.Run("failure-test", server, typeof(NothingToMeasure)));
            Assert.Contains("no reports", error.Message, StringComparison.Ordinal);
            Assert.False(File.Exists(Path.Combine(output, "results", "failure-test.csv")), "a failed run must not write results");
        }
        finally
        {
            Environment.SetEnvironmentVariable(RunContext.Variable, null);
        }
    }

    [Fact]
    public async Task A_run_with_no_benchmark_classes_is_refused()
    {
        await using var server = LocalServer.Start();
        Assert.Throws<ArgumentException>(() => Measure.Run("t", server));
    }
}
