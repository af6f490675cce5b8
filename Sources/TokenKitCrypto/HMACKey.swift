internal import COpenSSL

/// An HMAC key bound to one digest, ready to authenticate many messages from many threads.
///
/// The secret lives in ``SecureBytes`` (wiped on release). A template `EVP_MAC_CTX` is
/// initialised with the key once; each MAC duplicates it, so the key schedule is not redone
/// per message and no context is shared between threads.
package final class HMACKey: @unchecked Sendable {
    // @unchecked Sendable: `template` is never updated after init; it is only read by
    // EVP_MAC_CTX_dup, which does not mutate its source.
    private let template: OpaquePointer
    private let secret: SecureBytes
    /// The digest this key is bound to.
    package let digest: MessageDigest

    private static let mac: HMACAlgorithmHandle = HMACAlgorithmHandle()

    /// Binds `secret` to `digest`. Throws if OpenSSL cannot set up the MAC.
    package init(secret: SecureBytes, digest: MessageDigest) throws(CryptoError) {
        OpenSSLErrorQueue.clear()
        guard let ctx = EVP_MAC_CTX_new(Self.mac.pointer) else { throw .openSSL("cannot create an HMAC context") }
        // OSSL_PARAM keeps both pointers (name and value), so both C strings must stay alive
        // until EVP_MAC_init has read them.
        let ok = "digest".withCString { parameterName in
            digest.name.withCString { name -> Int32 in
                var params = [
                    OSSL_PARAM_construct_utf8_string(parameterName, UnsafeMutablePointer(mutating: name), 0),
                    OSSL_PARAM_construct_end(),
                ]
                return secret.withUnsafeBytes { key in
                    EVP_MAC_init(ctx, key.baseAddress?.assumingMemoryBound(to: UInt8.self), key.count, &params)
                }
            }
        }
        guard ok == 1 else {
            EVP_MAC_CTX_free(ctx)
            throw .openSSL("cannot initialise HMAC-\(digest.name)")
        }
        self.template = ctx
        self.secret = secret
        self.digest = digest
    }

    deinit { EVP_MAC_CTX_free(template) }

    /// Length of the secret in bytes.
    package var secretLength: Int { secret.count }

    /// The MAC of `data`.
    package func authenticationCode(for data: some ContiguousBytesLike) throws(CryptoError) -> [UInt8] {
        OpenSSLErrorQueue.clear()
        guard let ctx = EVP_MAC_CTX_dup(template) else { throw .openSSL("cannot copy the HMAC context") }
        defer { EVP_MAC_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: digest.size)
        var outLength = 0
        let ok = data.withBytes { input -> Int32 in
            guard EVP_MAC_update(ctx, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count) == 1 else { return 0 }
            return out.withUnsafeMutableBytes {
                EVP_MAC_final(ctx, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), &outLength, $0.count)
            }
        }
        guard ok == 1, outLength == digest.size else { throw .openSSL("HMAC computation failed") }
        return out
    }

    /// Whether `mac` is the MAC of `data`, compared in constant time.
    package func isValid(_ mac: some ContiguousBytesLike, for data: some ContiguousBytesLike) -> Bool {
        guard let expected = try? authenticationCode(for: data) else { return false }
        return mac.withBytes { given in
            guard given.count == expected.count else { return false }
            return expected.withUnsafeBytes { CRYPTO_memcmp($0.baseAddress, given.baseAddress, given.count) == 0 }
        }
    }

    /// Calls `body` with the secret bytes (for JWK export); do not let them escape.
    package func withSecretBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try secret.withUnsafeBytes(body)
    }
}

/// The fetched HMAC algorithm, shared by every key.
private final class HMACAlgorithmHandle: @unchecked Sendable {
    // @unchecked Sendable: an EVP_MAC is immutable once fetched.
    let pointer: OpaquePointer
    init() {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else {
            preconditionFailure("OpenSSL's default provider has no HMAC")
        }
        pointer = mac
    }
    deinit { EVP_MAC_free(pointer) }
}
