internal import COpenSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An owned OpenSSL `X509` certificate, parsed from DER, read-only afterwards.
///
/// Guarantees: the pointer is freed exactly once, in `deinit`; the DER must be one complete
/// certificate (trailing bytes refused); OpenSSL's extension cache is filled at parse time, so
/// later reads from several threads do not write to the certificate. Parsing checks only the
/// encoding: validity, signatures and extensions are judged by ``X509TrustStore``. The public
/// key is handed out only through the key admission gate (``publicKey()``).
package final class X509Cert: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: the X509 is not mutated after init (its extension cache is filled
    // there); OpenSSL allows concurrent reads and verifications of one X509.
    let pointer: OpaquePointer
    /// The DER encoding, exactly as parsed.
    package let der: [UInt8]

    /// Parses one DER certificate; trailing bytes are refused.
    package init(der: [UInt8]) throws(CryptoError) {
        let certificate = try PKey.decodeDER(der, what: "X.509 certificate", free: X509_free) { d2i_X509(nil, &$0, $1) }
        // Fills the extension cache now (X509_check_purpose with -1 only computes it).
        _ = X509_check_purpose(certificate, -1, 0)
        OpenSSLErrorQueue.clear()
        pointer = certificate
        self.der = der
    }

    deinit { X509_free(pointer) }

    /// Every `CERTIFICATE` block of `pem`, in order; other blocks are refused.
    package static func certificates(inPEM pem: String) throws(CryptoError) -> [X509Cert] {
        var certificates: [X509Cert] = []
        for document in try PEMDocument.parseAll(pem) {
            guard document.label == "CERTIFICATE" else {
                throw CryptoError("PEM block \"\(document.label)\" is not a CERTIFICATE")
            }
            certificates.append(try X509Cert(der: document.der))
        }
        return certificates
    }

    /// The certificate's public key, through the key admission gate (``PKey``): a key type
    /// or size TokenKit refuses is refused here too.
    package func publicKey() throws(CryptoError) -> PKey {
        OpenSSLErrorQueue.clear()
        guard let key = X509_get_pubkey(pointer) else { throw .openSSL("the certificate's public key is unusable") }
        return try PKey(taking: key, isPrivate: false)
    }

    /// The subject as RFC 2253 text (as `openssl x509 -noout -subject -nameopt RFC2253` prints it).
    package var subject: String { Self.rfc2253(X509_get_subject_name(pointer)) }

    /// The issuer as RFC 2253 text.
    package var issuer: String { Self.rfc2253(X509_get_issuer_name(pointer)) }

    private static func rfc2253(_ name: OpaquePointer?) -> String {
        guard let name, let bio = try? MemoryBIO() else { return "" }
        guard X509_NAME_print_ex(bio.pointer, name, 0, tokenkit_XN_FLAG_RFC2253()) >= 0 else {
            OpenSSLErrorQueue.clear()
            return ""
        }
        return bio.contentsAsString()
    }

    /// Whether an extension with the dotted object identifier `oid` (e.g.
    /// `"1.2.840.113635.100.6.11.1"`) is present; `false` for a malformed OID.
    package func hasExtension(oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else {
            OpenSSLErrorQueue.clear()
            return false
        }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(pointer, object, -1) >= 0
    }

    /// Whether the key usage extension is present and, if so, allows digital signatures.
    package var keyUsage: (present: Bool, digitalSignature: Bool) {
        guard X509_get_extension_flags(pointer) & tokenkit_EXFLAG_KUSAGE() != 0 else { return (false, false) }
        return (true, X509_get_key_usage(pointer) & tokenkit_KU_DIGITAL_SIGNATURE() != 0)
    }

    /// notBefore and notAfter as seconds since 1970 (UTC); `nil` when OpenSSL cannot read one.
    package var validity: (notBefore: Int64, notAfter: Int64)? {
        guard let notBefore = Self.seconds(X509_get0_notBefore(pointer)),
              let notAfter = Self.seconds(X509_get0_notAfter(pointer)) else { return nil }
        return (notBefore, notAfter)
    }

    private static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return Int64(timegm(&parts))
    }

    package var description: String { "X509Cert(\(subject))" }
}
