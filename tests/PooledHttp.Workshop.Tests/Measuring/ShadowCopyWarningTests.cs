using System.Runtime.Loader;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Validators;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Measuring;

namespace PooledHttp.Tests.Measuring;

public class ShadowCopyWarningTests
{
    // ShadowCopyValidator's message in BenchmarkDotNet 0.15.8, word for word, for an assembly in temp:
    // https://github.com/dotnet/BenchmarkDotNet/blob/v0.15.8/src/BenchmarkDotNet/Validators/ShadowCopyValidator.cs#L25
    private const string Warning = "Assembly PooledHttp.Workshop.Benchmarks, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null is located in temp. If you are running benchmarks from xUnit you need to disable shadow copy. It's not supported by design.";

    [Theory]
    [InlineData(Warning)]
    [InlineData("//    * " + Warning)] // as BenchmarkRunnerClean.PrintValidationErrors logs it
    public void The_temp_folder_warning_is_recognised_alone_and_as_logged(string text) => Assert.True(ShadowCopyWarning.Matches(text));

    [Theory]
    [InlineData("//    * Assembly PooledHttp.Workshop.Benchmarks which defines benchmarks is non-optimized")] // JitOptimizationsValidator: it matters
    [InlineData("//    * Benchmark method A has incorrect signature.")]
    [InlineData("Assembly X is located in temp.")] // a different message that only starts alike
    [InlineData("")]
    public void Other_messages_are_not_the_temp_folder_warning(string text) => Assert.False(ShadowCopyWarning.Matches(text));

    [Fact]
    public void BenchmarkDotNets_own_temp_folder_warning_stays_out_of_the_cell_and_other_errors_reach_it()
    {
        // The benchmark assembly copied under the temp folder, as in a clone there, so the real validator fires.
        string folder = Path.Combine(Path.GetTempPath(), "pooledhttp-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(folder);
        string copy = Path.Combine(folder, Path.GetFileName(typeof(IntroDownload).Assembly.Location));
        File.Copy(typeof(IntroDownload).Assembly.Location, copy);
        var context = new AssemblyLoadContext("benchmarks in temp", isCollectible: true);
        try
        {
            Type inTemp = context.LoadFromAssemblyPath(copy).GetType(typeof(IntroDownload).FullName!, throwOnError: true)!;
            var console = new StringWriter();
            var log = new ProgressLogger(console);
            IConfig config = ManualConfig.CreateEmpty()
                .AddJob(Job.Dry)
                .AddLogger(log)
                .AddValidator(new StopBeforeBuilding())
                .WithArtifactsPath(folder)
                .WithOptions(ConfigOptions.DisableLogFile);

            // Validation runs, its messages are logged, and the critical one stops the run before anything builds.
            Summary summary = BenchmarkRunner.Run(BenchmarkConverter.TypeToBenchmarks(inTemp, config));

            ValidationError warning = Assert.Single(summary.ValidationErrors, e => ShadowCopyWarning.Matches(e.Message));
            Assert.False(warning.IsCritical);
            Assert.Equal(Warning, warning.Message); // the wording pinned above is what this BenchmarkDotNet writes
            string shown = console.ToString();
            Assert.Contains(StopBeforeBuilding.Message, shown, StringComparison.Ordinal);
            Assert.DoesNotContain("located in temp", shown, StringComparison.Ordinal);
            Assert.DoesNotContain("located in temp", log.Tail, StringComparison.Ordinal);
            Assert.Contains(StopBeforeBuilding.Message, log.Tail, StringComparison.Ordinal);
        }
        finally
        {
            context.Unload();
        }
    }

    /// <summary>A critical error of its own, so the run ends after validation, as a real mistake would end it.</summary>
    private sealed class StopBeforeBuilding : IValidator
    {
        public const string Message = "stopped by the test before building";

        public bool TreatsWarningsAsErrors => false;

        public IEnumerable<ValidationError> Validate(ValidationParameters validationParameters) => [new ValidationError(true, Message)];
    }
}
