using System.Net;
using System.Reflection;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Checks;

/// <summary>Chapter 06's check: the learner's <c>E06_Http2Request.Create</c> builds a POST that goes over HTTP/2 without TLS.</summary>
internal sealed class Exercise06Check() : LearnerCheck("E06", "E06_Http2Request")
{
    /// <summary>The body each POST carries: S3's, as the chapter's <c>Http2Post</c> sends it.</summary>
    internal const int BodySize = 100_000;

    /// <inheritdoc />
    internal override Task<string> CheckAsync(Assembly learner, CancellationToken cancellationToken)
        => CheckAsync(LearnerCode.Bind<RequestExercise>(learner, ClassName, "Create"), cancellationToken);

    /// <summary>The check itself, for any request factory: the tests hand it known-bad ones too.</summary>
    internal static async Task<string> CheckAsync(RequestExercise create, CancellationToken cancellationToken)
    {
        await using Http2Server server = await Http2Server.StartAsync().ConfigureAwait(false);
        using var invoker = new HttpMessageInvoker(new SocketsHttpHandler());
        var sink = new Uri(server.Http2Address, "/sink");
        for (int attempt = 1; attempt <= 2; attempt++)
        {
            using var content = new ByteArrayContent(new byte[BodySize]);
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

        return $"Two POSTs of {BodySize:N0} B, each a new message, went over HTTP/2 to a server that speaks nothing else, and came back 200.";
    }
}
