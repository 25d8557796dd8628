using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Running;
using PooledHttp.Workshop.Benchmarks;
using PooledHttp.Workshop.Measuring;
using PooledHttp.Tests.Support;

namespace PooledHttp.Tests.Measuring;

[Collection(SerialTests.Name)] // sets the profile variable, which the whole process reads
public class MeasurementProfileTests
{
    [Theory]
    [InlineData(null, 14)] // 7 sizes × 2 strategies
    [InlineData("quick", 10)] // 16 KiB and 256 KiB left out
    public void BenchmarkDotNet_reads_the_profiles_sizes_when_it_builds_the_cases(string? profile, int cases)
    {
        string? before = Environment.GetEnvironmentVariable(MeasurementProfile.Variable);
        Environment.SetEnvironmentVariable(MeasurementProfile.Variable, profile);
        try
        {
            BenchmarkRunInfo info = BenchmarkConverter.TypeToBenchmarks(typeof(PooledSweep), ManualConfig.CreateEmpty().AddJob(MeasurementProfile.CurrentJob));
            Assert.Equal(cases, info.BenchmarksCases.Length);
            bool hasQuarterMiB = info.BenchmarksCases.Any(c => (int)c.Parameters["Size"] == 256 * 1024);
            Assert.Equal(profile is null, hasQuarterMiB);
        }
        finally
        {
            Environment.SetEnvironmentVariable(MeasurementProfile.Variable, before);
        }
    }

    [Fact]
    public void Parameters_given_to_Measure_replace_a_class_s_own_and_make_one_case_per_method_and_value()
    {
        // PooledSweep plans 7 sizes × 2 methods by itself; asked for 4 MiB alone, it must run 2 cases, not 14 copies.
        IConfig config = ManualConfig.CreateEmpty().AddJob(MeasurementProfile.CurrentJob);
        BenchmarkRunInfo plan = Measure.Plan(typeof(PooledSweep), config, new Dictionary<string, object[]> { ["Size"] = [4 * 1024 * 1024] });
        Assert.Equal(2, plan.BenchmarksCases.Length);
        Assert.All(plan.BenchmarksCases, c => Assert.Equal(4 * 1024 * 1024, (int)c.Parameters["Size"]));
        Assert.Equal(["Client_Send_GetByteArrayAsync", "PooledRead"], plan.BenchmarksCases.Select(c => c.Descriptor.WorkloadMethod.Name).Order(StringComparer.Ordinal));

        BenchmarkRunInfo two = Measure.Plan(typeof(PooledSweep), config, new Dictionary<string, object[]> { ["Size"] = [1024, 2048] });
        Assert.Equal(4, two.BenchmarksCases.Length);
    }

    [Fact]
    public void The_quick_profile_leaves_out_only_the_sizes_it_names_and_keeps_their_order()
    {
        string? before = Environment.GetEnvironmentVariable(MeasurementProfile.Variable);
        try
        {
            Environment.SetEnvironmentVariable(MeasurementProfile.Variable, "quick");
            Assert.Equal([16 * 1024, 1024 * 1024, 16 * 1024 * 1024], NaiveDownload.Sizes);
            Assert.Equal([1024, 1024 * 1024, 4 * 1024 * 1024, 16 * 1024 * 1024, 64 * 1024 * 1024], PooledSweep.Sizes);
            Environment.SetEnvironmentVariable(MeasurementProfile.Variable, "default");
            Assert.Equal([1024, 16 * 1024, 256 * 1024, 1024 * 1024, 4 * 1024 * 1024, 16 * 1024 * 1024, 64 * 1024 * 1024], PooledSweep.Sizes);
            Assert.Equal([16 * 1024, 1024 * 1024, 16 * 1024 * 1024], NaiveDownload.Sizes); // the same in both profiles
        }
        finally
        {
            Environment.SetEnvironmentVariable(MeasurementProfile.Variable, before);
        }
    }
}
