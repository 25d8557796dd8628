using System.Net;

namespace PooledHttp.Workshop.Exercising;

/// <summary>Chapter 06's exercise: a request that goes over HTTP/2 without TLS (h2c), measured as S3's POST.</summary>
public sealed class Exercise06() : Exercise("E06", CreateRequest.ClassName, "06-http2",
    "build a POST that goes over HTTP/2 to an h2c server")
{
    /// <summary>The learner's request factory, bound by the check and the benchmark.</summary>
    private static readonly LearnerMethod<RequestExercise> CreateRequest = new("E06_Http2Request", "Create");

    /// <summary>Checks the learner's <c>E06_Http2Request.Create</c>, then measures S3's POST built with it against <paramref name="server"/>.</summary>
    /// <param name="server">The chapter's HTTP/2 server.</param>
    public static ExerciseResult Run(Http2Server server)
    {
        ArgumentNullException.ThrowIfNull(server);
        return ExerciseRunner.Run(new Exercise06(), server.Context, typeof(Benchmark), new Dictionary<string, object[]>());
    }

    /// <inheritdoc />
    public override async Task<ExerciseResult> RunAloneAsync()
    {
        await using Http2Server server = await Http2Server.StartAsync().ConfigureAwait(false);
        return Run(server);
    }

    /// <summary>The learner's request goes over HTTP/2 without TLS.</summary>
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => CheckAsync(CreateRequest.Bind(learner), cancellationToken);

    /// <summary>The check itself, for any request factory: the tests hand it known-bad ones too.</summary>
    internal static async Task<string> CheckAsync(RequestExercise create, CancellationToken cancellationToken)
    {
        await using Http2Server server = await Http2Server.StartAsync().ConfigureAwait(false);
        using var invoker = new HttpMessageInvoker(new SocketsHttpHandler());
        var sink = new Uri(server.Http2Address, "/sink");
        for (int attempt = 1; attempt <= 2; attempt++)
        {
            using var content = new ByteArrayContent(new byte[Http2Post.BodySize]);
            using HttpRequestMessage request = create(sink, content);
            if (request.Method != HttpMethod.Post || request.RequestUri != sink || !ReferenceEquals(request.Content, content))
            {
                throw new ExerciseCheckFailedException($"Expected a POST to {sink} carrying the content you were given; got {request.Method} to {request.RequestUri}{(ReferenceEquals(request.Content, content) ? string.Empty : " with other content")}.");
            }

            HttpResponseMessage response;
            try
            {
                response = await invoker.SendAsync(request, cancellationToken).ConfigureAwait(false);
            }
            catch (HttpRequestException e)
            {
                throw new ExerciseCheckFailedException($"The request failed against a port that speaks only HTTP/2 ({e.Message}). It went as HTTP/{request.Version}: ask for 2.0, and say that nothing lower will do.");
            }

            using (response)
            {
                if (response.Version != HttpVersion.Version20 || !response.IsSuccessStatusCode)
                {
                    throw new ExerciseCheckFailedException($"The answer came over HTTP/{response.Version} with status {(int)response.StatusCode}; expected HTTP/2 and 200.");
                }
            }
        }

        return $"Two POSTs of {Http2Post.BodySize:N0} B, each a new message, went over HTTP/2 to a server that speaks nothing else, and came back 200.";
    }

    /// <inheritdoc />
    internal override IEnumerable<MeasuredRow> Beside(MeasurementResult chapter, MeasurementResult yours)
        => chapter.Where(r => r.Benchmark == nameof(Http2Post) && r.Variant == nameof(HttpProtocol.Http2) && r.RuntimeMajor == Environment.Version.Major);

    /// <summary>S3's POST of 100,000 bytes over HTTP/2, with a new request built by the learner's factory each time.</summary>
    public class Benchmark : ExerciseBenchmark
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
            _create = CreateRequest.Bind(Learner);
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
}
