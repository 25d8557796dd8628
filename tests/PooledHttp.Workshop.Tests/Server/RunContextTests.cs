using PooledHttp.Workshop.Server;

namespace PooledHttp.Tests.Server;

/// <summary>The one value a workshop process hands the processes it starts.</summary>
public class RunContextTests
{
    [Fact]
    public void A_context_survives_its_variable_and_leaves_out_what_it_does_not_set()
    {
        var context = new RunContext
        {
            Output = "/tmp/out",
            Profile = "quick",
            Server = new Uri("http://127.0.0.1:5000/"),
            HttpsCertificate = "AAEC",
            ExercisesBuild = Guid.Parse("0fd23cf7-d142-4c77-8b46-b422e08b2256"),
        };

        string json = context.ToJson();
        Assert.Equal(context, RunContext.Parse(json));
        Assert.DoesNotContain("http2", json, StringComparison.OrdinalIgnoreCase);
        Assert.Equal(new RunContext(), RunContext.Parse(null));
        Assert.Equal(new RunContext(), RunContext.Parse(""));
    }

    [Fact]
    public void With_keeps_the_parents_values_and_takes_every_value_the_other_sets()
    {
        var parent = new RunContext { Output = "/tmp/out", Profile = "quick", Server = new Uri("http://127.0.0.1:1/") };
        var servers = new RunContext { Server = new Uri("http://127.0.0.1:2/"), Http2 = new Uri("http://127.0.0.1:3/") };

        RunContext child = parent.With(servers);

        Assert.Equal("/tmp/out", child.Output);
        Assert.Equal("quick", child.Profile);
        Assert.Equal(new Uri("http://127.0.0.1:2/"), child.Server);
        Assert.Equal(new Uri("http://127.0.0.1:3/"), child.Http2);
        Assert.True(child.UnderRunner);
        Assert.False(servers.UnderRunner);
    }

    [Fact]
    public void With_carries_every_property_a_context_has()
    {
        // A property added to RunContext and forgotten in With would be dropped between a parent and its child.
        var full = new RunContext();
        foreach (System.Reflection.PropertyInfo property in typeof(RunContext).GetProperties().Where(p => p.CanWrite))
        {
            object value = property.PropertyType == typeof(Uri) ? new Uri("http://127.0.0.1:9/")
                : property.PropertyType == typeof(Guid?) ? Guid.NewGuid()
                : (object)property.Name;
            property.SetValue(full, value);
        }

        Assert.Equal(full, new RunContext().With(full));
        Assert.Equal(full, full.With(new RunContext()));
        Assert.Equal(full, RunContext.Parse(full.ToJson()));
        Assert.DoesNotContain("underRunner", full.ToJson(), StringComparison.Ordinal);
    }

    [Fact]
    public void A_variable_that_holds_no_context_fails_with_its_name_and_what_to_do()
    {
        var error = Assert.Throws<InvalidOperationException>(() => RunContext.Parse("http://127.0.0.1:5000/"));
        Assert.Contains(RunContext.Variable, error.Message, StringComparison.Ordinal);
        Assert.Contains("unset it", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_missing_value_names_what_is_missing_and_what_sets_it()
    {
        var error = Assert.Throws<InvalidOperationException>(() => RunContext.Require(new RunContext().Server, "The local server's address", "Measure.Run"));
        Assert.Contains("The local server's address is not in this process's run context (POOLEDHTTP_RUN). Run it through Measure.Run", error.Message, StringComparison.Ordinal);
    }
}
