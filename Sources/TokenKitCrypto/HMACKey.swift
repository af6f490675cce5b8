internal import COpenSSL
internal import TokenKitPrimitives

/// An HMAC key bound to one digest, ready to authenticate many messages from many threads.
///
/// The secret lives in ``SecureBytes`` (wiped on release). A template `EVP_MAC_CTX` is
/// initialised with the key once; MACs use copies of it kept in a small lock-free pool, so the
/// key schedule is not redone per message, no context is allocated per message in steady
/// state, and no context is used by two threads at once.
package final class HMACKey: @unchecked Sendable {
    // @unchecked Sendable: `template` is never updated after init; it is only read by
    // EVP_MAC_CTX_dup, which does not mutate its source.
    private let template: OpaquePointer
    /// Ready contexts (copies of `template`), reused across MACs; see ``ContextPool``.
    private let contexts = ContextPool(kinds: 1) { _, ctx in EVP_MAC_CTX_free(ctx) }
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
        var out = [UInt8](repeating: 0, count: digest.size)
        let ok = data.withBytes { input in
            out.withUnsafeMutableBytes { computeMAC(input, into: $0) }
        }
        guard ok else { throw .openSSL("HMAC computation failed") }
        return out
    }

    /// The MAC of the concatenation of `parts`, computed without concatenating them (JWE's
    /// AES-CBC-HMAC authenticates AAD, IV, ciphertext and a length as one message). The MAC
    /// is returned in ``SecureBytes``: half of it is the tag, and the caller compares it in
    /// constant time.
    package func authenticationCode(forConcatenationOf parts: [[UInt8]]) throws(CryptoError) -> SecureBytes {
        OpenSSLErrorQueue.clear()
        guard let ctx = EVP_MAC_CTX_dup(template) else { throw .openSSL("cannot allocate an HMAC context") }
        defer { EVP_MAC_CTX_free(ctx) }
        guard EVP_MAC_init(ctx, nil, 0, nil) == 1 else { throw .openSSL("HMAC computation failed") }
        for part in parts where !part.isEmpty {
            let ok = part.withUnsafeBufferPointer { EVP_MAC_update(ctx, $0.baseAddress, $0.count) == 1 }
            guard ok else { throw .openSSL("HMAC computation failed") }
        }
        let size = digest.size
        return try SecureBytes.filling(count: size) { (output) throws(CryptoError) in
            var outLength = 0
            guard EVP_MAC_final(ctx, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &outLength, output.count) == 1,
                  outLength == size
            else { throw .openSSL("HMAC computation failed") }
        }
    }

    /// Whether `mac` is the MAC of `data`, compared in constant time.
    package func isValid(_ mac: some ContiguousBytesLike, for data: some ContiguousBytesLike) -> Bool {
        // The expected MAC goes to a stack buffer: no allocation per check.
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { expected in
            guard data.withBytes({ computeMAC($0, into: expected) }) else {
                OpenSSLErrorQueue.clear()
                return false
            }
            return mac.withBytes { given in
                guard given.count == digest.size else { return false }
                return ConstantTime.equal(UnsafeRawBufferPointer(rebasing: expected[0..<given.count]), given)
            }
        }
    }

    /// Writes the MAC of `input` to the start of `output` (at least `digest.size` bytes).
    ///
    /// A context is taken from the key's pool (or duplicated from the template when none is
    /// free) and re-initialised without a key, which restarts it from the stored key schedule;
    /// it goes back to the pool afterwards, so a steady stream of MACs allocates no context.
    private func computeMAC(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Bool {
        // The error queue is cleared only on failure: these calls add nothing to it when they
        // succeed, and ERR_clear_error costs a thread-local lookup per call.
        let template = template
        let computed = try? contexts.withContext(0, make: { () throws(CryptoError) -> OpaquePointer in
            guard let copy = EVP_MAC_CTX_dup(template) else { throw CryptoError("cannot allocate an HMAC context") }
            return copy
        }) { ctx -> (Bool, ContextPool.Disposition) in
            var outLength = 0
            let ok = EVP_MAC_init(ctx, nil, 0, nil) == 1
                && EVP_MAC_update(ctx, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count) == 1
                && EVP_MAC_final(ctx, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &outLength, output.count) == 1
                && outLength == digest.size
            return (ok, ok ? .reusable : .spent)
        }
        return computed == true
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
