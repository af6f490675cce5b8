internal import COpenSSL

/// A raw `EVP_PKEY` pointer held for the length of a check: freed when this is released
/// unless ``release()`` handed it on first. Makes "free on every error path" the default
/// instead of a line each `throw` has to remember.
final class OwnedPKey {
    private var pointer: OpaquePointer?

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { if let pointer { EVP_PKEY_free(pointer) } }

    /// Gives up ownership: the caller now frees the key.
    func release() -> OpaquePointer {
        guard let pointer else { preconditionFailure("OwnedPKey released twice") }
        self.pointer = nil
        return pointer
    }
}
