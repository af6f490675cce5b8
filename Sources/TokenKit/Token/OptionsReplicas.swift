internal import TokenKitCrypto

/// Per-CPU copies of a verifier's ``ValidationOptions`` whose sets and strings have storage
/// of their own.
///
/// The claim checks retain and release the option sets and strings they compare against;
/// with one shared copy, every verifying thread writes the same reference counts, and the
/// cache line holding them moves between CPUs on every token (verification on two threads
/// was barely faster than on one). With a copy per CPU shard (``ShardedSlots``), each thread
/// writes only counts of its own CPU's copy. The copies are equal in value to the original,
/// so every check answers exactly as it would with the original.
final class OptionsReplicas: @unchecked Sendable {
    // @unchecked Sendable: slots are accessed only through AtomicSlot; boxes are immutable.
    private final class Box {
        let options: ValidationOptions
        init(_ options: ValidationOptions) { self.options = options }
    }

    private let slots = ShardedSlots(kinds: 1, slotsPerShard: 1) { _, box in
        Unmanaged<Box>.fromOpaque(box).release()
    }

    init() {}

    /// This CPU's copy of `options`, made on first use. Callers pass the same options on
    /// every call (a verifier's own).
    /// Calls `body` with this CPU's copy of `options` (made on first use), borrowed in place:
    /// no copy of the options is made per call, so no reference count of theirs is written.
    /// The copy stays alive while this object does (its slot holds it), so the borrow is safe
    /// for the duration of `body`.
    func withLocal<Result>(_ options: ValidationOptions, _ body: (ValidationOptions) -> Result) -> Result {
        let slot = slots.local(0)
        if let raw = AtomicSlot.load(slot) {
            return Unmanaged<Box>.fromOpaque(raw)._withUnsafeGuaranteedRef { body($0.options) }
        }
        let box = Unmanaged.passRetained(Box(options.replicated())).toOpaque()
        if AtomicSlot.publish(slot, box) {
            return Unmanaged<Box>.fromOpaque(box)._withUnsafeGuaranteedRef { body($0.options) }
        }
        // Another thread on this shard published first: use the original this time.
        Unmanaged<Box>.fromOpaque(box).release()
        return body(options)
    }
}

extension ValidationOptions {
    /// An equal copy whose sets and strings are new storage (see ``OptionsReplicas``).
    func replicated() -> ValidationOptions {
        func fresh(_ s: String) -> String { String(decoding: Array(s.utf8), as: UTF8.self) }
        func fresh(_ set: IdentifierSet) -> IdentifierSet { IdentifierSet(set.map(fresh)) }
        var copy = self
        copy.algorithms = algorithms.map { Set(Array($0)) }
        copy.requiredClaims = fresh(requiredClaims)
        copy.issuers = issuers.map(fresh)
        copy.audiences = audiences.map(fresh)
        copy.subject = subject.map(fresh)
        copy.type = type.map(fresh)
        return copy
    }
}
