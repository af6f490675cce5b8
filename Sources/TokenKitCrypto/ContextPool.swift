/// A small lock-free pool of prepared OpenSSL contexts, grouped by kind (e.g. "RS256 verify")
/// and sharded by CPU.
///
/// OpenSSL contexts are not thread-safe, so each operation takes a context out of a slot
/// (an atomic exchange), uses it alone, and puts it back (an atomic compare-and-swap into
/// an empty slot); when every slot it looks at is empty a new context is made, and when
/// every slot is full on return the context is freed. Several threads therefore never share
/// a context, and a single thread reuses the same one without allocating.
///
/// The slots a thread looks at are those of its CPU's shard (``ShardedSlots``): threads on
/// different CPUs take and return contexts on cache lines of their own instead of fighting
/// over one line of slots, which is what made verification scale poorly on several cores.
/// A thread that changes CPU between take and put simply returns the context to its new
/// CPU's shard; that is safe, because ownership passes only through the atomic operations.
///
/// Callers use contexts only through ``withContext(_:make:_:)``, which decides in one place
/// whether a context goes back to the pool or is freed: no call site takes, returns or
/// frees a context by hand.
final class ContextPool: @unchecked Sendable {
    // @unchecked Sendable: the slots are only accessed through the atomic helpers.
    static let slotsPerShard = 4
    private let slots: ShardedSlots
    private let release: @Sendable (_ kind: Int, _ context: OpaquePointer) -> Void

    init(kinds: Int, release: @escaping @Sendable (_ kind: Int, _ context: OpaquePointer) -> Void) {
        self.release = release
        slots = ShardedSlots(kinds: kinds, slotsPerShard: Self.slotsPerShard) { kind, context in release(kind, OpaquePointer(context)) }
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

    /// A pooled context of `kind` from this CPU's shard, or `nil` when none is free there
    /// (the caller makes one).
    @inline(__always)
    private func take(_ kind: Int) -> OpaquePointer? {
        let local = slots.local(kind)
        for i in 0..<Self.slotsPerShard {
            if let context = AtomicSlot.take(local + i) { return OpaquePointer(context) }
        }
        return nil
    }

    /// Returns a context that is ready for the next operation of `kind` to this CPU's shard
    /// (or frees it when the shard is full).
    @inline(__always)
    private func put(_ kind: Int, _ context: OpaquePointer) {
        let local = slots.local(kind)
        let raw = UnsafeMutableRawPointer(context)
        for i in 0..<Self.slotsPerShard where AtomicSlot.publish(local + i, raw) { return }
        release(kind, context)
    }
}
