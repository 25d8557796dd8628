using System.Net.Http.Headers;
using System.Net.Mime;
using System.Text.Json;
using CommunityToolkit.HighPerformance.Buffers;
using Microsoft.IO;
using PooledHttp.Content;
using PooledHttp.Workshop.Server;

namespace PooledHttp.Workshop.Benchmarks;

/// <summary>
/// The two pooled ways of building a JSON body that S2 compared, and the POST they share, written once
/// for <see cref="RequestBodies"/> (the whole request) and <see cref="SerializeThenSend"/> (its halves).
/// </summary>
public static class JsonBodies
{
    /// <summary>The books as UTF-8 JSON in a pooled <c>ArrayPoolBufferWriter</c>, which doubles its one array as it fills. The caller disposes it, after the send.</summary>
    public static ArrayPoolBufferWriter<byte> ToBufferWriter(Book[] books)
    {
        var buffer = new ArrayPoolBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            JsonSerializer.Serialize(writer, books, PooledJson.Options);
        }

        return buffer;
    }

    /// <summary>The books as UTF-8 JSON in a <see cref="RecyclableMemoryStream"/>, which appends fixed-size pooled blocks, rewound to the start. The caller disposes it, after the send.</summary>
    public static RecyclableMemoryStream ToRecyclableStream(Book[] books)
    {
        RecyclableMemoryStream stream = RecyclableStreams.Manager.GetStream();
        JsonSerializer.Serialize(stream, books, PooledJson.Options);
        stream.Position = 0;
        return stream;
    }

    /// <summary><paramref name="content"/> labelled as UTF-8 JSON.</summary>
    public static HttpContent AsJson(HttpContent content)
    {
        ArgumentNullException.ThrowIfNull(content);
        content.Headers.ContentType = new MediaTypeHeaderValue(MediaTypeNames.Application.Json) { CharSet = "utf-8" };
        return content;
    }

    /// <summary>POSTs <paramref name="content"/> to the sink and returns the byte count it answers with: a short body would show there.</summary>
    public static async Task<long> PostAsync(HttpClient client, Uri sink, HttpContent content)
    {
        ArgumentNullException.ThrowIfNull(client);
        using var request = new HttpRequestMessage(HttpMethod.Post, sink) { Content = content };
        using HttpResponseMessage response = await client.SendAsync(request).ConfigureAwait(false);
        return await ReadCountAsync(response).ConfigureAwait(false);
    }

    /// <summary>The sink's answer: the number of bytes it received.</summary>
    public static async Task<long> ReadCountAsync(HttpResponseMessage response)
    {
        ArgumentNullException.ThrowIfNull(response);
        response.EnsureSuccessStatusCode();
        return long.Parse(await response.Content.ReadAsStringAsync().ConfigureAwait(false), System.Globalization.CultureInfo.InvariantCulture);
    }
}
