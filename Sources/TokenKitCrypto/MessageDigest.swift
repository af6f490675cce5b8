internal import COpenSSL

/// A SHA-2 digest used by JWS algorithms, fetched from OpenSSL's default provider once.
///
/// Fetching explicitly (instead of `EVP_sha256()`) avoids OpenSSL 3's implicit fetch on
/// every use, which matters on a per-request verify path.
package final class MessageDigest: @unchecked Sendable {
    // @unchecked Sendable: an EVP_MD is immutable and reference-counted by OpenSSL; it is
    // documented as safe to share between threads once fetched.
    let md: OpaquePointer
    /// Digest output length in bytes.
    package let size: Int
    /// The OpenSSL name ("SHA256", ...).
    package let name: String

    private init(name: String) {
        guard let md = EVP_MD_fetch(nil, name, nil) else {
            // The default provider always has SHA-2; its absence means a broken OpenSSL install.
            preconditionFailure("OpenSSL's default provider has no \(name)")
        }
        self.md = md
        self.size = Int(EVP_MD_get_size(md))
        self.name = name
    }

    deinit { EVP_MD_free(md) }

    /// SHA-256.
    package static let sha256 = MessageDigest(name: "SHA256")
    /// SHA-384.
    package static let sha384 = MessageDigest(name: "SHA384")
    /// SHA-512.
    package static let sha512 = MessageDigest(name: "SHA512")

    /// The digest of `data`.
    package func hash(_ data: some ContiguousBytesLike) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var outLength: UInt32 = 0
        let ok = data.withBytes { input in
            out.withUnsafeMutableBytes { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &outLength, md, nil)
            }
        }
        precondition(ok == 1, "EVP_Digest cannot fail for a fetched SHA-2 digest")
        return Array(out.prefix(Int(outLength)))
    }
}

/// Byte containers the wrapper reads without copying.
package protocol ContiguousBytesLike {
    /// Calls `body` with the bytes.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

extension Array: ContiguousBytesLike where Element == UInt8 {
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try withUnsafeBytes(body) }
}
extension ArraySlice: ContiguousBytesLike where Element == UInt8 {
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try withUnsafeBytes(body) }
}
extension UnsafeRawBufferPointer: ContiguousBytesLike {
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try body(self) }
}
