internal import COpenSSL

/// The scrypt password-based key derivation function (RFC 7914), through OpenSSL.
///
/// Guarantees: parameters are validated before any work (N a power of two ≥ 2, r ≥ 1, p ≥ 1,
/// memory 128·r·N bytes within ``Scrypt/Parameters/maximumMemory``, and work N·r·p within
/// ``Scrypt/Parameters/maximumWork``, so a forged header can cost at most 32 default
/// derivations), and the derived key is returned in ``SecureBytes``. Does not: judge
/// passphrase strength.
package enum Scrypt {
    /// The scrypt cost parameters, as stored in an encrypted file's header.
    package struct Parameters: Sendable, Hashable, CustomStringConvertible {
        /// log2 of the CPU/memory cost N.
        package var logN: UInt8
        /// The block size r.
        package var r: UInt32
        /// The parallelization p.
        package var p: UInt32

        /// The recommended interactive cost: N = 2^15, r = 8, p = 1 (32 MiB, ~0.1 s).
        package static let interactive = Parameters(logN: 15, r: 8, p: 1)

        /// The most memory a derivation may use (1 GiB); larger parameters are refused, so a
        /// forged file header cannot make a process allocate without bound.
        package static let maximumMemory: UInt64 = 1 << 30

        /// The most work a derivation may take, as N·r·p: 2^23, which is 32 times the
        /// interactive cost (N=2^15, r=8, p=1). The memory cap alone would let p=16 multiply
        /// the time of a 512 MiB derivation by 16 (a forged header once cost 53 s per open).
        package static let maximumWork: UInt64 = 1 << 23

        /// N·r·p, the number of block-mixing steps the derivation performs (up to a constant).
        package var work: UInt64 {
            (UInt64(1) << UInt64(min(logN, 40))) * UInt64(min(r, 1 << 10)) * UInt64(min(p, 1 << 10))
        }

        /// Parameters as given; call ``validate()`` (``Scrypt/deriveKey(passphrase:salt:parameters:length:)`` does).
        package init(logN: UInt8, r: UInt32, p: UInt32) {
            self.logN = logN
            self.r = r
            self.p = p
        }

        /// Bytes the derivation needs (128·r·N for the big array plus 128·r·p for the blocks).
        package var memoryNeeded: UInt64 {
            128 * UInt64(r) * ((UInt64(1) << UInt64(min(logN, 62))) + UInt64(p) + 2)
        }

        /// Throws when the parameters are out of the accepted range, naming which one.
        package func validate() throws(CryptoError) {
            guard (1...30).contains(logN) else { throw CryptoError("scrypt log2(N) must be 1 to 30, not \(logN)") }
            guard (1...64).contains(r) else { throw CryptoError("scrypt r must be 1 to 64, not \(r)") }
            guard (1...16).contains(p) else { throw CryptoError("scrypt p must be 1 to 16, not \(p)") }
            guard memoryNeeded <= Self.maximumMemory else {
                throw CryptoError("scrypt parameters need \(memoryNeeded >> 20) MiB, more than the \(Self.maximumMemory >> 20) MiB allowed")
            }
            guard work <= Self.maximumWork else {
                throw CryptoError("scrypt parameters need N·r·p = 2^\(63 - work.leadingZeroBitCount) work, more than the 2^23 allowed")
            }
        }

        /// E.g. `scrypt(N=2^15, r=8, p=1)`.
        package var description: String { "scrypt(N=2^\(logN), r=\(r), p=\(p))" }
    }

    /// Derives `length` bytes from `passphrase` and `salt`.
    package static func deriveKey(
        passphrase: SecureBytes, salt: [UInt8], parameters: Parameters, length: Int
    ) throws(CryptoError) -> SecureBytes {
        try parameters.validate()
        guard salt.count <= 1024 else { throw CryptoError("the scrypt salt must be at most 1024 bytes") }
        guard (1...1024).contains(length) else { throw CryptoError("scrypt output length must be 1 to 1024 bytes") }
        return try SecureBytes.filling(count: length) { (output) throws(CryptoError) in
            OpenSSLErrorQueue.clear()
            let rc = passphrase.withUnsafeBytes { pass in
                salt.withUnsafeBytes { saltBytes in
                    EVP_PBE_scrypt(
                        pass.baseAddress?.assumingMemoryBound(to: CChar.self), pass.count,
                        saltBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), saltBytes.count,
                        UInt64(1) << UInt64(parameters.logN), UInt64(parameters.r), UInt64(parameters.p),
                        parameters.memoryNeeded + (1 << 20),
                        output.baseAddress?.assumingMemoryBound(to: UInt8.self), output.count)
                }
            }
            guard rc == 1 else { throw CryptoError.openSSL("scrypt key derivation failed") }
        }
    }
}
