using System.Buffers;
using System.Net.Http.Headers;
using PooledHttp.Buffers;

namespace PooledHttp.Content;

/// <summary>
/// How <see cref="PooledJsonContent.Create{T}(T, System.Text.Json.Serialization.Metadata.JsonTypeInfo{T}, PooledContentOptions)"/>
/// builds its body: any of the three may be left out, by name (<c>new() { MaxBytes = 64 * 1024 }</c>); <see langword="default"/> is
/// the shared pool, no limit and <c>application/json; charset=utf-8</c>.
/// </summary>
/// <remarks>A value type, so that <see langword="null"/> never binds to it: <c>PooledJsonContent.Create(value, null, null)</c>
/// reads as the overload with serializer options, as it looks.</remarks>
public readonly struct PooledContentOptions : IEquatable<PooledContentOptions>
{
    /// <summary>The pool to rent from; <see cref="ArrayPool{T}.Shared"/> when <see langword="null"/>.</summary>
    public ArrayPool<byte>? Pool { get; init; }

    /// <summary>The largest body to build; none when <see langword="null"/>. A bigger one throws <see cref="BufferLimitExceededException"/>.</summary>
    public int? MaxBytes { get; init; }

    /// <summary>The Content-Type, sent as given; <c>application/json; charset=utf-8</c> when <see langword="null"/>. A charset, if given, must be utf-8.</summary>
    public MediaTypeHeaderValue? MediaType { get; init; }

    /// <inheritdoc />
    public bool Equals(PooledContentOptions other) => ReferenceEquals(Pool, other.Pool) && MaxBytes == other.MaxBytes && Equals(MediaType, other.MediaType);

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is PooledContentOptions other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode() => HashCode.Combine(Pool, MaxBytes, MediaType);

    /// <summary>Whether the two hold the same settings.</summary>
    public static bool operator ==(PooledContentOptions left, PooledContentOptions right) => left.Equals(right);

    /// <summary>Whether the two hold different settings.</summary>
    public static bool operator !=(PooledContentOptions left, PooledContentOptions right) => !left.Equals(right);
}
