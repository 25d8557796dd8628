using BenchmarkDotNet.Attributes;
using PooledHttp.Workshop.Checks;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>S3's POST of 100,000 bytes over HTTP/2, with a new request built by the learner's <c>E06_Http2Request.Create</c> each time.</summary>
public class Exercise06Benchmark : ExerciseBenchmark
{
    private readonly byte[] _body = new byte[Http2Post.BodySize];
    private RequestExercise _create = null!;
    private HttpMessageInvoker _invoker = null!;
    private Uri _sink = null!;

    /// <summary>Your request, sent as S3 sent its own: an invoker without cookies or redirects, the answer copied to nowhere.</summary>
    [Benchmark]
    public async Task<long> Yours()
    {
        using HttpRequestMessage request = _create(_sink, new ByteArrayContent(_body));
        return await Http2Post.SendAsync(_invoker, request).ConfigureAwait(false);
    }

    /// <inheritdoc />
    protected override void PrepareExercise()
    {
        _create = LearnerCode.Bind<RequestExercise>(Learner, "E06_Http2Request", "Create");
        _invoker = new HttpMessageInvoker(new SocketsHttpHandler { UseCookies = false, AllowAutoRedirect = false });
        Uri address = RunContext.Require(RunContext.Current.Http2, "Chapter 06's HTTP/2 address", "Exercise06.Run with the chapter's Http2Server");
        _sink = new Uri(address, "/sink");
    }

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _invoker?.Dispose();
        }

        base.Dispose(disposing);
    }
}
