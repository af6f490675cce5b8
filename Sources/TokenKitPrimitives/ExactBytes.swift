/// The one byte-for-byte equality of TokenKit: every identifier comparison (``Swift/String/isByteIdentical(to:)``,
/// ``ExactKey``) and every comparison of raw token text ends here.
///
/// Guarantees: `true` exactly when the `count` bytes at `a` and `b` are equal. Not constant
/// time (it stops at the first difference): never use it for secrets, use
/// ``ConstantTime`` instead.
///
/// `public` and `@inlinable` (not `package`) because it is on the verify hot path (`kid`,
/// `iss`, `aud`, `alg`, cached header text) and must inline into the modules that call it.
/// `b` may be `nil` only when `count` is 0.
@inlinable @inline(__always)
public func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer?, count: Int) -> Bool {
    guard count > 0 else { return true }
    guard let b else { return false }
    var i = 0
    // Eight bytes at a time (issuers and audiences are often URLs of 30+ bytes), then the tail.
    while i + 8 <= count {
        if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
        i += 8
    }
    while i < count {
        if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
        i += 1
    }
    return true
}
