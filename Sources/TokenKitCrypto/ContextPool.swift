internal import COpenSSL

/// A small lock-free pool of prepared OpenSSL contexts, grouped by kind (e.g. "RS256 verify").
///
/// OpenSSL contexts are not thread-safe, so each operation takes a context out of a slot
/// (an atomic exchange), uses it alone, and puts it back (an atomic compare-and-swap into
/// an empty slot); when every slot of its kind is empty a new context is made, and when
/// every slot is full on return the context is freed. Several threads therefore never share
/// a context, and a single thread reuses the same one without allocating.
///
/// Callers use contexts only through ``withContext(_:make:_:)``, which decides in one place
/// whether a context goes back to the pool or is freed: no call site takes, returns or
/// frees a context by hand.
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

    /// What `body` of ``withContext(_:make:_:)`` says about the context it used.
    enum Disposition {
        /// Ready for the next operation of its kind: back to the pool.
        case reusable
        /// In an unknown state (a failed sign, init or final): freed.
        case spent
    }

    /// Runs `body` with a context of `kind` — a pooled one, else a new one from `make` — and
    /// then pools or frees it as `body`'s disposition says. `body` never frees the context.
    /// Throws what `make` throws (when no pooled context was free and a new one failed).
    @inline(__always)
    func withContext<R>(
        _ kind: Int, make: () throws(CryptoError) -> OpaquePointer, _ body: (OpaquePointer) -> (R, Disposition)
    ) throws(CryptoError) -> R {
        let context: OpaquePointer
        if let pooled = take(kind) { context = pooled } else { context = try make() }
        let (result, disposition) = body(context)
        switch disposition {
        case .reusable: put(kind, context)
        case .spent: release(kind, context)
        }
        return result
    }

    /// A pooled context of `kind`, or `nil` when none is free (the caller makes one).
    private func take(_ kind: Int) -> OpaquePointer? {
        let base = slots + kind * Self.slotsPerKind
        for i in 0..<Self.slotsPerKind {
            if let context = tokenkit_slot_take(base + i) { return OpaquePointer(context) }
        }
        return nil
    }

    /// Returns a context that is ready for the next operation of `kind` (or frees it).
    private func put(_ kind: Int, _ context: OpaquePointer) {
        let base = slots + kind * Self.slotsPerKind
        let raw = UnsafeMutableRawPointer(context)
        for i in 0..<Self.slotsPerKind where tokenkit_slot_put(base + i, raw) == 1 { return }
        release(kind, context)
    }
}
