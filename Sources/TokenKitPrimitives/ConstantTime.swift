/// The one constant-time comparison of TokenKit, for secrets and values an attacker must
/// not learn byte by byte: MACs, the file store's key check, a sign-in's `state` and
/// `nonce`.
///
/// Guarantees: for inputs of equal length, the time taken does not depend on where (or
/// whether) they differ: every byte is read and the differences are OR-ed together, with no
/// early exit, the same loop as OpenSSL's `CRYPTO_memcmp`. Lengths are not secret: inputs of
/// different lengths compare unequal at once. Does not: hide the length, or protect the
/// bytes from being copied.
package enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes, compared in constant time.
    @inline(never)
    package static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<a.count { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    /// Whether two byte collections are equal, compared in constant time (see
    /// ``equal(_:_:)-(UnsafeRawBufferPointer,UnsafeRawBufferPointer)``).
    package static func equal(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        let x = Array(a), y = Array(b)
        return x.withUnsafeBytes { lhs in y.withUnsafeBytes { rhs in equal(lhs, rhs) } }
    }

    /// Whether two strings have the same UTF-8 bytes, compared in constant time.
    package static func equal(_ a: String, _ b: String) -> Bool { equal(a.utf8, b.utf8) }
}
