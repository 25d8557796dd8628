using System.Runtime.CompilerServices;

namespace PooledHttp.Http;

/// <summary>
/// The token <see cref="HttpClient.CancelPendingRequests"/> and <see cref="HttpClient.Dispose(bool)"/> cancel. The
/// client links it into every request it sends, and <c>GetByteArrayAsync</c> keeps it over its body copy; a body read
/// after <c>SendAsync</c> returned is outside it, so the pooled reads link it themselves.
/// </summary>
/// <remarks>
/// <see cref="HttpClient"/> does not expose the token. It lives in the private field <c>_pendingRequestsCts</c>
/// (dotnet/runtime, <c>src/libraries/System.Net.Http/src/System/Net/Http/HttpClient.cs</c>, the same in .NET 8 and
/// .NET 10), reached here through <see cref="UnsafeAccessorAttribute"/>, which is safe under trimming and AOT. Should
/// a runtime rename the field, the accessor throws <see cref="MissingFieldException"/> once, and the reads fall back to
/// what they did before: the caller's token and the client's timeout, not the client's cancellation.
/// </remarks>
internal static class PendingRequests
{
    private static volatile bool s_unavailable;

    /// <summary>The client's current pending-requests token, or <see cref="CancellationToken.None"/> when it cannot be reached.</summary>
    /// <exception cref="ObjectDisposedException">The client was disposed, as <see cref="HttpClient"/>'s own methods report it.</exception>
    public static CancellationToken Of(HttpClient client)
    {
        if (s_unavailable)
        {
            return CancellationToken.None;
        }

        try
        {
            // Read twice at most: CancelPendingRequests swaps in a new source and disposes the old one, and a read
            // that lands between the two sees a disposed source while the client itself is alive.
            for (int attempt = 0; ; attempt++)
            {
                CancellationTokenSource source = Volatile.Read(ref Field(client));
                try
                {
                    return source.Token;
                }
                catch (ObjectDisposedException) when (attempt == 0)
                {
                }
                catch (ObjectDisposedException)
                {
                    throw new ObjectDisposedException(client.GetType().ToString());
                }
            }
        }
        catch (MissingFieldException)
        {
            s_unavailable = true;
            return CancellationToken.None;
        }
    }

    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_pendingRequestsCts")]
    private static extern ref CancellationTokenSource Field(HttpClient client);
}
