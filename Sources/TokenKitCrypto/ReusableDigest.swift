internal import COpenSSL

/// A digest context kept between uses, for hashing many small inputs on one thread (e.g. the
/// audit's token references): no context allocation per input, unlike
/// ``MessageDigest/hash(_:)``.
///
/// Not thread-safe: one instance per thread. Guarantees the same output as
/// ``MessageDigest/hash(_:)``.
package final class ReusableDigest {
    private let digest: MessageDigest
    private let context: OpaquePointer
    private var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))

    /// A context for `digest`.
    package init(_ digest: MessageDigest) {
        guard let context = EVP_MD_CTX_new() else {
            // Only an allocation failure makes this fail.
            preconditionFailure("cannot allocate an OpenSSL digest context")
        }
        self.digest = digest
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Calls `body` with the digest of `data` (valid only during the call).
    package func withDigest<R>(of data: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var length: UInt32 = 0
        let ok = output.withUnsafeMutableBufferPointer { out in
            EVP_DigestInit_ex2(context, digest.md, nil) == 1
                && EVP_DigestUpdate(context, data.baseAddress, data.count) == 1
                && EVP_DigestFinal_ex(context, out.baseAddress, &length) == 1
        }
        precondition(ok, "a fetched SHA-2 digest cannot fail")
        return output.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<Int(length)])) }
    }
}
