internal import COpenSSL

/// A small lock-free pool of prepared OpenSSL contexts, grouped by kind (e.g. "RS256 verify").
///
/// OpenSSL contexts are not thread-safe, so each operation takes a context out of a slot
/// (an atomic exchange), uses it alone, and puts it back (an atomic compare-and-swap into
/// an empty slot); when every slot of its kind is empty a new context is made, and when
/// every slot is full on return the context is freed. Several threads therefore never share
/// a context, and a single thread reuses the same one without allocating.
final class ContextPool: @unchecked Sendable {
    // @unchecked Sendable: `slots` is only accessed through the atomic helpers.
    static let slotsPerKind = 4
    private let kinds: Int
    private let slots: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private let release: @Sendable (_ kind: Int, _ context: OpaquePointer) -> Void

    init(kinds: Int, release: @escaping @Sendable (_ kind: Int, _ context: OpaquePointer) -> Void) {
        self.kinds = kinds
        self.release = release
        slots = .allocate(capacity: kinds * Self.slotsPerKind)
        slots.initialize(repeating: nil, count: kinds * Self.slotsPerKind)
    }

    deinit {
        for kind in 0..<kinds {
            for i in 0..<Self.slotsPerKind {
                if let context = slots[kind * Self.slotsPerKind + i] { release(kind, OpaquePointer(context)) }
            }
        }
        slots.deallocate()
    }

    /// A pooled context of `kind`, or `nil` when none is free (the caller makes one).
    func take(_ kind: Int) -> OpaquePointer? {
        let base = slots + kind * Self.slotsPerKind
        for i in 0..<Self.slotsPerKind {
            if let context = tokenkit_slot_take(base + i) { return OpaquePointer(context) }
        }
        return nil
    }

    /// Returns a context that is ready for the next operation of `kind` (or frees it).
    func put(_ kind: Int, _ context: OpaquePointer) {
        let base = slots + kind * Self.slotsPerKind
        let raw = UnsafeMutableRawPointer(context)
        for i in 0..<Self.slotsPerKind where tokenkit_slot_put(base + i, raw) == 1 { return }
        release(kind, context)
    }
}
