internal import COpenSSL
internal import TokenKitPrimitives

/// A heap buffer for secret bytes (HMAC secrets, private key scalars, passphrases, data keys)
/// that is wiped with `OPENSSL_cleanse` when its last reference goes away.
///
/// Guarantees: the bytes are zeroed before the memory is returned to the allocator, and the
/// type never prints its contents (`description` shows only the length). It does not lock
/// the pages (they may be swapped out) and cannot wipe copies the caller made.
package final class SecureBytes: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: the buffer is written only in init and read-only afterwards.
    private let storage: UnsafeMutableRawBufferPointer

    /// Copies `bytes` into a fresh buffer owned by this object.
    package init(_ bytes: some Collection<UInt8>) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        _ = UnsafeMutableRawBufferPointer(rebasing: storage[0..<bytes.count]).initializeMemory(as: UInt8.self, from: bytes)
        count = bytes.count
    }

    /// Allocates `count` bytes and lets `fill` write them (e.g. from a random generator).
    /// If `fill` throws, the error is rethrown and the buffer is wiped and freed by `deinit`
    /// (which Swift runs for a class whose stored properties were all set before the throw).
    package init(count: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        self.count = count
        try fill(UnsafeMutableRawBufferPointer(rebasing: storage[0..<count]))
    }

    /// Number of secret bytes.
    package let count: Int

    /// Calls `body` with read-only access to the bytes; do not let the pointer escape.
    package func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
    }

    /// Copies the bytes out (the copy is the caller's to protect).
    package var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Constant-time comparison with other bytes (``TokenKitPrimitives/ConstantTime``);
    /// lengths are not secret.
    package func constantTimeEquals(_ other: some Collection<UInt8>) -> Bool {
        let other = Array(other)
        return withUnsafeBytes { mine in other.withUnsafeBytes { ConstantTime.equal(mine, $0) } }
    }

    package var description: String { "SecureBytes(\(count) bytes)" }

    deinit {
        OPENSSL_cleanse(storage.baseAddress, storage.count)
        storage.deallocate()
    }
}
