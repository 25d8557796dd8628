namespace PooledHttp.Workshop.Server;

/// <summary>
/// Trust for one client only: the handler a benchmark's client uses for chapter 09's HTTPS server, whose
/// self-made certificate arrives in <see cref="RunContext.HttpsCertificate"/>. No certificate store,
/// no machine-wide trust; every other client still refuses that certificate.
/// </summary>
public static class PinnedCertificate
{
    /// <summary>
    /// A handler that accepts the server's certificate only when it is <paramref name="trusted"/> (its DER bytes), byte for byte,
    /// and otherwise applies the usual checks: what "trusted by that one client only" means.
    /// </summary>
    public static SocketsHttpHandler Handler(byte[] trusted)
    {
        ArgumentNullException.ThrowIfNull(trusted);
        byte[] expected = trusted.ToArray();
        return new SocketsHttpHandler
        {
            SslOptions =
            {
                RemoteCertificateValidationCallback = (_, certificate, _, errors)
                    => errors == System.Net.Security.SslPolicyErrors.None
                        || (certificate is not null && certificate.GetRawCertData().AsSpan().SequenceEqual(expected)),
            },
        };
    }
}
