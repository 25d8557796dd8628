using System.Net;

namespace PooledHttp.Workshop.Trying;

/// <summary>What one run of a download did (<see cref="TryOnce"/>): the status, the body bytes it read off the wire, what it returned.</summary>
/// <param name="Url">The address it downloaded.</param>
/// <param name="Status">The response's status, or null when no response came.</param>
/// <param name="Expected">The body's size: what the server sent.</param>
/// <param name="Read">The body bytes the code read.</param>
/// <param name="FirstMismatch">The offset of the first byte read that differs from what the server sent, or null.</param>
/// <param name="Returned">What the code returned as the body's length, or null when it threw.</param>
/// <param name="Error">What it threw, or null.</param>
public sealed record TryResult(Uri Url, HttpStatusCode? Status, long Expected, long Read, long? FirstMismatch, long? Returned, Exception? Error)
{
    /// <summary>Whether the code got a 200, read every byte of the body as sent, and returned its length.</summary>
    public bool IsWhole => Status == HttpStatusCode.OK && Read == Expected && FirstMismatch is null && Returned == Expected;

    /// <inheritdoc />
    public override string ToString()
    {
        string status = Status is { } s ? $"{(int)s} {s}" : "no response";
        string verdict = this switch
        {
            { Error: { } e } => $"threw {e.GetType().Name}: {e.Message}",
            { IsWhole: true } => "the whole body, byte for byte",
            { FirstMismatch: { } at } => $"byte {at:N0} differs from what the server sent",
            _ when Read < Expected => $"{Expected - Read:N0} bytes never read{(Returned == Read ? ", and nothing said so" : string.Empty)}",
            _ => $"returned {Returned:N0} for a body of {Expected:N0} bytes",
        };
        return $"{(IsWhole ? "✓" : "✗")} GET {Url.PathAndQuery} → {status} · read {Read:N0} of {Expected:N0} bytes · returned {(Returned is { } r ? r.ToString("N0", System.Globalization.CultureInfo.InvariantCulture) : "-")} · {verdict}";
    }
}
