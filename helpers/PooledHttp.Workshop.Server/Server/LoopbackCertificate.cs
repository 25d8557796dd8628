using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace PooledHttp.Workshop.Server;

/// <summary>
/// Chapter 09's HTTPS without touching the machine: a certificate for 127.0.0.1 made in memory with
/// <see cref="CertificateRequest"/>, which <see cref="WireServer"/> presents and one client trusts by comparing
/// bytes (<see cref="PinnedCertificate.Handler"/>). Nothing is written to a certificate store.
/// </summary>
public static class LoopbackCertificate
{
    /// <summary>A self-signed certificate for 127.0.0.1 and localhost, valid for a day, with its private key.</summary>
    public static X509Certificate2 Create()
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest("CN=pooledhttp-workshop", key, HashAlgorithmName.SHA256);
        var names = new SubjectAlternativeNameBuilder();
        names.AddIpAddress(IPAddress.Loopback);
        names.AddDnsName("localhost");
        request.CertificateExtensions.Add(names.Build());
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], critical: false)); // server authentication
        DateTimeOffset now = DateTimeOffset.UtcNow;
        using X509Certificate2 made = request.CreateSelfSigned(now.AddMinutes(-5), now.AddDays(1));
        return X509CertificateLoader.LoadPkcs12(made.Export(X509ContentType.Pkcs12), password: null);
    }
}
