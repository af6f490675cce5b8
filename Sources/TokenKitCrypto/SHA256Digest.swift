internal import COpenSSL

/// SHA-256 of public data (e.g. an integrity check over a file header).
///
/// Guarantees: the 32-byte SHA-256 digest, computed by OpenSSL. Does not: authenticate — anyone
/// can recompute it; use it to detect accidental corruption, never as a MAC.
package enum SHA256Digest {
    /// Digest length in bytes.
    package static let byteCount = 32

    /// The SHA-256 digest of `data`.
    package static func hash(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        OpenSSLErrorQueue.clear()
        let rc = data.withUnsafeBytes { input in
            digest.withUnsafeMutableBytes { output in
                EVP_Digest(
                    input.baseAddress, input.count,
                    output.baseAddress?.assumingMemoryBound(to: UInt8.self), &length, EVP_sha256(), nil)
            }
        }
        guard rc == 1, length == UInt32(byteCount) else { throw .openSSL("SHA-256 failed") }
        return Array(digest[0..<byteCount])
    }
}
