internal import COpenSSL

/// HKDF-SHA256 (RFC 5869): expands one secret into independent keys, one per `info` label.
///
/// Guarantees: outputs for different `info` values are computationally independent, so one
/// may be published (e.g. as a key-check value) without revealing another; results are in
/// ``SecureBytes``. Does not: stretch a weak secret (use ``Scrypt`` first for passphrases).
package enum HKDF {
    /// Derives `length` bytes (1 to 255·32) from `inputKey`, `salt` and `info`.
    package static func deriveKey(
        inputKey: SecureBytes, salt: [UInt8], info: [UInt8], length: Int
    ) throws(CryptoError) -> SecureBytes {
        guard (1...(255 * 32)).contains(length) else { throw CryptoError("HKDF output length must be 1 to 8160 bytes") }
        // Extract: PRK = HMAC(salt, IKM); an absent salt is HashLen zero bytes (RFC 5869 §2.2).
        let saltKey = SecureBytes(salt.isEmpty ? [UInt8](repeating: 0, count: 32) : salt)
        let prk = try CryptoError.rethrowing("HKDF failed") {
            try inputKey.withUnsafeBytes { ikm in try hmacSHA256(key: saltKey, data: ikm) }
        }
        // Expand: T(i) = HMAC(PRK, T(i-1) || info || i); OKM = T(1) || T(2) || ...
        var okm: [UInt8] = []
        var previous: [UInt8] = []
        defer {
            wipe(&okm)
            wipe(&previous)
        }
        var counter: UInt8 = 1
        while okm.count < length {
            var block = previous + info + [counter]
            defer { wipe(&block) }
            let t = try CryptoError.rethrowing("HKDF failed") {
                try block.withUnsafeBytes { data in try hmacSHA256(key: prk, data: data) }
            }
            wipe(&previous)
            previous = t.bytes
            okm += previous
            counter &+= 1
        }
        return SecureBytes(okm[0..<length])
    }

    private static func hmacSHA256(key: SecureBytes, data: UnsafeRawBufferPointer) throws(CryptoError) -> SecureBytes {
        try SecureBytes.filling(count: 32) { (output) throws(CryptoError) in
            OpenSSLErrorQueue.clear()
            var outLength = 0
            // SecureBytes never hands out a null base address (it allocates at least 1 byte);
            // `data` may be empty, and OpenSSL accepts a null pointer with length 0 there.
            let result = key.withUnsafeBytes { keyBytes in
                EVP_Q_mac(
                    nil, "HMAC", nil, "SHA256", nil,
                    keyBytes.baseAddress, keyBytes.count,
                    data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count,
                    output.baseAddress?.assumingMemoryBound(to: UInt8.self), output.count, &outLength)
            }
            guard result != nil, outLength == 32 else { throw CryptoError.openSSL("HMAC-SHA256 failed") }
        }
    }

    private static func wipe(_ bytes: inout [UInt8]) {
        let count = bytes.count
        bytes.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, count) }
    }
}
