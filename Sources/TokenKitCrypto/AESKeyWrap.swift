internal import COpenSSL

/// AES key wrap (RFC 3394, default IV `A6A6A6A6A6A6A6A6`) through OpenSSL's `AES-*-WRAP`
/// ciphers: how JWE's A128KW/A192KW/A256KW and ECDH-ES+A*KW carry a content key.
///
/// Guarantees: a key-encryption key of 16, 24 or 32 bytes; wrapped keys are whole 64-bit
/// blocks, at least two; `unwrap` returns the key (in ``SecureBytes``) only when RFC 3394's
/// integrity check passes, and every failure — wrong key, altered or mis-sized input — is the
/// same ``CryptoError`` (`"key unwrap failed"`), so a caller cannot tell them apart.
package enum AESKeyWrap {
    /// The one error of ``unwrap(_:keyEncryptionKey:)``.
    package static let unwrapFailure = "key unwrap failed"

    /// Wraps `key` (a multiple of 8 bytes, at least 16) under `keyEncryptionKey`; the result
    /// is 8 bytes longer.
    package static func wrap(_ key: SecureBytes, keyEncryptionKey kek: SecureBytes) throws(CryptoError) -> [UInt8] {
        guard key.count >= 16, key.count % 8 == 0 else { throw CryptoError("AES key wrap needs a key of 16 or more bytes, a multiple of 8") }
        let context = try CipherContext()
        try context.initialize(try FetchedCipher.aes(.wrap, keyByteCount: kek.count), encrypt: true, key: kek, iv: nil)
        var out = [UInt8](repeating: 0, count: key.count + 8)
        let written = try CryptoError.rethrowing("AES key wrap failed") {
            try key.withUnsafeBytes { input in try out.withUnsafeMutableBytes { try context.update(input: input, output: $0) } }
        }
        guard written == key.count + 8 else { throw CryptoError("AES key wrap produced an unexpected length") }
        return out
    }

    /// Unwraps `wrapped` under `keyEncryptionKey`; throws ``unwrapFailure`` for any input
    /// that does not unwrap (including a length that is not whole blocks, or under 24 bytes).
    package static func unwrap(_ wrapped: [UInt8], keyEncryptionKey kek: SecureBytes) throws(CryptoError) -> SecureBytes {
        let cipher = try FetchedCipher.aes(.wrap, keyByteCount: kek.count)
        guard wrapped.count >= 24, wrapped.count % 8 == 0 else { throw CryptoError(unwrapFailure) }
        let context = try CipherContext()
        try context.initialize(cipher, encrypt: false, key: kek, iv: nil)
        // Unwrapped into a buffer as long as the input (OpenSSL's output check wants that
        // much room), of which the first `count - 8` bytes are the key.
        let buffer = try SecureBytes.filling(count: wrapped.count) { (output) throws(CryptoError) in
            let written: Int
            do {
                written = try wrapped.withUnsafeBytes { (input) throws(CryptoError) in try context.update(input: input, output: output) }
            } catch {
                OpenSSLErrorQueue.clear()
                throw CryptoError(unwrapFailure)
            }
            guard written == wrapped.count - 8 else { throw CryptoError(unwrapFailure) }
        }
        return buffer.withUnsafeBytes { SecureBytes($0.prefix(wrapped.count - 8)) }
    }
}
