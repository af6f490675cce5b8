extension SecureBytes {
    /// Allocates `count` wiped-on-release bytes and lets `fill` write them; if `fill` throws,
    /// the buffer is released (and wiped) and the error rethrown.
    ///
    /// Use this instead of throwing from inside `init(count:fill:)`: a Swift class whose
    /// initializer throws after every stored property is set still runs `deinit`, so that
    /// initializer's own cleanup plus `deinit` would free the buffer twice.
    package static func filling(
        count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws(CryptoError) -> Void
    ) throws(CryptoError) -> SecureBytes {
        var failure: CryptoError?
        let bytes = SecureBytes(count: count) { buffer in
            do throws(CryptoError) { try fill(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
        return bytes
    }
}
