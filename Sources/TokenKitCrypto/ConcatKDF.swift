internal import COpenSSL

/// The Concat KDF of NIST SP 800-56A §5.8.1 with SHA-256, as JWE's ECDH-ES uses it
/// (RFC 7518 §4.6.2): `K(i) = SHA-256(counter_i || Z || OtherInfo)` for i = 1, 2, …, the
/// blocks concatenated and cut to the requested length.
///
/// Each block is one SHA-256 through OpenSSL on the digest fetched once
/// (``MessageDigest/sha256``), fed the counter, Z and OtherInfo in turn. (OpenSSL's `SSKDF`
/// computes the same thing but fetches SHA-256 by name on every derivation, which cost as
/// much as the KDF itself on the ECDH-ES decrypt path.)
///
/// Guarantees: the output lives in ``SecureBytes``; the shared secret Z is read in place,
/// never copied into an ordinary array; a partial last block passes through a wiped buffer.
/// Does not: build OtherInfo (the JWE layer assembles AlgorithmID, PartyUInfo, PartyVInfo
/// and SuppPubInfo).
package enum ConcatKDF {
    private static let blockSize = 32

    /// Derives `length` bytes (1 to 64) from the shared secret `sharedSecret` and `otherInfo`.
    package static func deriveKey(sharedSecret: SecureBytes, otherInfo: [UInt8], length: Int) throws(CryptoError) -> SecureBytes {
        guard (1...64).contains(length) else { throw CryptoError("Concat KDF output must be 1 to 64 bytes") }
        OpenSSLErrorQueue.clear()
        guard let context = EVP_MD_CTX_new() else { throw .openSSL("cannot allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        return try SecureBytes.filling(count: length) { (output) throws(CryptoError) in
            guard let base = output.baseAddress else { throw CryptoError("Concat KDF failed") }
            var counter: UInt32 = 1
            var offset = 0
            while offset < length {
                let wanted = min(blockSize, length - offset)
                if wanted == blockSize {
                    try block(counter, sharedSecret, otherInfo, into: base + offset, context: context)
                } else {
                    // A partial last block: the whole block goes to a buffer wiped on release.
                    let spare = try SecureBytes.filling(count: blockSize) { (spare) throws(CryptoError) in
                        guard let target = spare.baseAddress else { throw CryptoError("Concat KDF failed") }
                        try block(counter, sharedSecret, otherInfo, into: target, context: context)
                    }
                    spare.withUnsafeBytes { bytes in
                        UnsafeMutableRawBufferPointer(rebasing: output[offset..<length]).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<wanted]))
                    }
                }
                offset += wanted
                counter += 1
            }
        }
    }

    /// Writes `SHA-256(counter || Z || otherInfo)` (32 bytes) to `target`.
    private static func block(
        _ counter: UInt32, _ sharedSecret: SecureBytes, _ otherInfo: [UInt8], into target: UnsafeMutableRawPointer, context: OpaquePointer
    ) throws(CryptoError) {
        let counterBytes = [UInt8(counter >> 24), UInt8(counter >> 16 & 0xFF), UInt8(counter >> 8 & 0xFF), UInt8(counter & 0xFF)]
        let ok = sharedSecret.withUnsafeBytes { z in
            EVP_DigestInit_ex2(context, MessageDigest.sha256.md, nil) == 1
                && EVP_DigestUpdate(context, counterBytes, counterBytes.count) == 1
                && EVP_DigestUpdate(context, z.baseAddress, z.count) == 1
                && EVP_DigestUpdate(context, otherInfo, otherInfo.count) == 1
                && EVP_DigestFinal_ex(context, target.assumingMemoryBound(to: UInt8.self), nil) == 1
        }
        guard ok else { throw .openSSL("Concat KDF failed") }
    }
}
