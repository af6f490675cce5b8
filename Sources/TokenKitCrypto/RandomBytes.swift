internal import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG.
package enum RandomBytes {
    /// Returns `count` random bytes; throws if the generator is not seeded.
    package static func generate(count: Int) throws(CryptoError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return out }
        OpenSSLErrorQueue.clear()
        let rc = out.withUnsafeMutableBytes { RAND_bytes($0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(count)) }
        guard rc == 1 else { throw .openSSL("the random generator failed") }
        return out
    }

    /// Returns `count` random bytes in a buffer that is wiped when released.
    package static func generateSecret(count: Int) throws(CryptoError) -> SecureBytes {
        do {
            return try SecureBytes(count: count) { buffer in
                OpenSSLErrorQueue.clear()
                guard count == 0 || RAND_bytes(buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(count)) == 1 else {
                    throw CryptoError.openSSL("the random generator failed")
                }
            }
        } catch let error as CryptoError {
            throw error
        } catch {
            throw CryptoError("the random generator failed")
        }
    }
}
