internal import COpenSSL

/// The Concat KDF of NIST SP 800-56A §5.8.1 with SHA-256, as JWE's ECDH-ES uses it
/// (RFC 7518 §4.6.2), through OpenSSL's single-step KDF (`SSKDF`, SP 800-56C: the same
/// construction, `K(i) = SHA-256(counter_i || Z || OtherInfo)`).
///
/// Guarantees: the output lives in ``SecureBytes``; the shared secret Z is handed to
/// OpenSSL and never copied into an ordinary array. Does not: build OtherInfo (the JWE layer
/// assembles AlgorithmID, PartyUInfo, PartyVInfo and SuppPubInfo).
package enum ConcatKDF {
    /// Derives `length` bytes (1 to 64) from the shared secret `sharedSecret` and `otherInfo`.
    package static func deriveKey(sharedSecret: SecureBytes, otherInfo: [UInt8], length: Int) throws(CryptoError) -> SecureBytes {
        guard (1...64).contains(length) else { throw CryptoError("Concat KDF output must be 1 to 64 bytes") }
        OpenSSLErrorQueue.clear()
        guard let kctx = EVP_KDF_CTX_new(SingleStepKDF.shared.pointer) else { throw .openSSL("cannot allocate a KDF context") }
        defer { EVP_KDF_CTX_free(kctx) }
        return try SecureBytes.filling(count: length) { (output) throws(CryptoError) in
            // OSSL_PARAM keeps pointers to the names and values: every buffer stays alive
            // until EVP_KDF_derive has read them.
            let ok = "digest".withCString { digestName in
                "key".withCString { keyName in
                    "info".withCString { infoName in
                        "SHA256".withCString { sha256 in
                            sharedSecret.withUnsafeBytes { z in
                                otherInfo.withUnsafeBytes { info in
                                    var params = [
                                        OSSL_PARAM_construct_utf8_string(digestName, UnsafeMutablePointer(mutating: sha256), 0),
                                        OSSL_PARAM_construct_octet_string(keyName, UnsafeMutableRawPointer(mutating: z.baseAddress), z.count),
                                        OSSL_PARAM_construct_octet_string(infoName, UnsafeMutableRawPointer(mutating: info.baseAddress), info.count),
                                        OSSL_PARAM_construct_end(),
                                    ]
                                    return EVP_KDF_derive(kctx, output.baseAddress?.assumingMemoryBound(to: UInt8.self), output.count, &params) == 1
                                }
                            }
                        }
                    }
                }
            }
            guard ok else { throw CryptoError.openSSL("Concat KDF failed") }
        }
    }
}

/// OpenSSL's SSKDF implementation, fetched once.
private final class SingleStepKDF: @unchecked Sendable {
    // @unchecked Sendable: an EVP_KDF is immutable once fetched.
    static let shared = SingleStepKDF()
    let pointer: OpaquePointer

    private init() {
        guard let kdf = EVP_KDF_fetch(nil, "SSKDF", nil) else { preconditionFailure("OpenSSL's default provider has no SSKDF") }
        pointer = kdf
    }

    deinit { EVP_KDF_free(pointer) }
}
