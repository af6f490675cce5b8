internal import CLibSecret

/// Owns one strong reference to a GObject (a SecretService, SecretCollection, SecretItem,
/// GDBusConnection...) and drops it exactly once, in `deinit`.
///
/// Not Sendable: a reference is used only on the queue of the operation that created it.
final class GObjectRef {
    let pointer: gpointer

    /// Takes ownership of a reference the caller already holds (a `*_sync` result, a
    /// `(transfer full)` return value); `nil` stays `nil`.
    init?(taking pointer: gpointer?) {
        guard let pointer else { return nil }
        self.pointer = pointer
    }

    /// Adds a reference of our own to a borrowed object (`(transfer none)`, e.g. a list element).
    init(retaining pointer: gpointer) {
        self.pointer = g_object_ref(pointer)
    }

    /// The object as an opaque C pointer (for types C declares but does not define).
    var opaque: OpaquePointer { OpaquePointer(pointer) }

    /// The object as a typed C pointer.
    func cast<T>(to type: T.Type) -> UnsafeMutablePointer<T> {
        pointer.assumingMemoryBound(to: T.self)
    }

    deinit { g_object_unref(pointer) }
}
