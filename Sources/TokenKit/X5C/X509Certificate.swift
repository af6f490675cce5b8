import Foundation
internal import TokenKitCrypto

/// An X.509 certificate, parsed (not verified): a trust anchor for ``X5CVerifier``, or an
/// element of a token's `x5c` chain.
///
/// Parsing checks the DER encoding only (one certificate, no trailing bytes); dates,
/// signatures and extensions are judged when a chain is verified. Immutable and `Sendable`;
/// two certificates are equal when their DER is.
public struct X509Certificate: Sendable, Hashable, CustomStringConvertible {
    let certificate: X509Cert

    init(_ certificate: X509Cert) { self.certificate = certificate }

    /// A certificate from its DER encoding. Throws ``JWTError/Code/invalidKey`` naming the problem.
    public init(derEncoded der: [UInt8]) throws(JWTError) {
        do { certificate = try X509Cert(der: der) } catch { throw .invalidKey("cannot read the certificate", cause: error) }
    }

    /// Every certificate in PEM text (one or more `CERTIFICATE` blocks; any other block is
    /// refused). Throws ``JWTError/Code/invalidKey`` naming the problem.
    public static func certificates(pem: String) throws(JWTError) -> [X509Certificate] {
        do { return try X509Cert.certificates(inPEM: pem).map(X509Certificate.init) } catch {
            throw .invalidKey("cannot read the certificates", cause: error)
        }
    }

    /// The DER encoding, exactly as parsed.
    public var derEncoded: [UInt8] { certificate.der }

    /// The subject as RFC 2253 text, as `openssl x509 -noout -subject -nameopt RFC2253`
    /// prints it (the form ``X5CPolicy/leafSubject`` is compared with).
    public var subject: String { certificate.subject }

    /// The issuer as RFC 2253 text.
    public var issuer: String { certificate.issuer }

    /// The validity period (notBefore, notAfter); `nil` when OpenSSL cannot read it.
    public var validity: ClosedRange<Date>? {
        guard let times = certificate.validity, times.notBefore <= times.notAfter else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(times.notBefore))...Date(timeIntervalSince1970: TimeInterval(times.notAfter))
    }

    /// Whether the certificate carries an extension with the dotted object identifier `oid`.
    public func hasExtension(oid: String) -> Bool { certificate.hasExtension(oid: oid) }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.certificate.der == rhs.certificate.der }
    public func hash(into hasher: inout Hasher) { hasher.combine(certificate.der) }

    public var description: String { "X509Certificate(\(subject))" }
}
