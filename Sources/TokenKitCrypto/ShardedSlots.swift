/// Pointer-sized atomic slots grouped by kind and by CPU shard, for TokenKit's lock-free
/// pools and caches: a thread uses the slots of its CPU's shard (``CPUShard``), and each
/// shard's slots sit on a 128-byte block of their own, so two threads on different CPUs never
/// write to the same cache line (nor to the adjacent-line pair some CPUs fetch together).
///
/// A kind's block of shards is allocated on first use of that kind (most keys use one kind
/// of the twenty a key could), published with a compare-and-swap and freed only with this
/// object. Values are opaque: ``deinit`` hands every value still held to `release`.
///
/// Safety does not depend on the shard: a thread that moved to another CPU meanwhile, or
/// two CPUs mapped to one shard, only share slots, and every slot access is atomic
/// (``AtomicSlot``).
package final class ShardedSlots: @unchecked Sendable {
    // @unchecked Sendable: `blocks` entries are written once, by compare-and-swap, and only
    // read after; slot contents are read and written only through the atomic helpers.

    /// Bytes per shard: two 64-byte cache lines.
    static let shardBytes = 128
    /// The most slots a shard can have.
    package static let maxSlotsPerShard = shardBytes / MemoryLayout<UnsafeMutableRawPointer?>.stride

    /// Slots per shard and kind.
    package let slotsPerShard: Int
    private let kinds: Int
    private let shards = CPUShard.count
    /// One pointer per kind: that kind's block (`shards` × ``shardBytes``), or nil.
    private let blocks: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private let release: @Sendable (_ kind: Int, _ value: UnsafeMutableRawPointer) -> Void

    /// Slots for `kinds` kinds, `slotsPerShard` (at most ``maxSlotsPerShard``) per shard;
    /// `release` is called on every value still held when this object goes away.
    package init(kinds: Int, slotsPerShard: Int, release: @escaping @Sendable (_ kind: Int, _ value: UnsafeMutableRawPointer) -> Void) {
        precondition(kinds > 0 && slotsPerShard > 0 && slotsPerShard <= Self.maxSlotsPerShard)
        self.kinds = kinds
        self.slotsPerShard = slotsPerShard
        self.release = release
        blocks = .allocate(capacity: kinds)
        blocks.initialize(repeating: nil, count: kinds)
    }

    deinit {
        for kind in 0..<kinds {
            guard let block = blocks[kind] else { continue }
            for shard in 0..<shards {
                let slots = Self.slots(block, shard: shard)
                for i in 0..<slotsPerShard {
                    if let value = slots[i] { release(kind, value) }
                }
            }
            block.deallocate()
        }
        blocks.deallocate()
    }

    /// The `slotsPerShard` slots of `kind` in the calling thread's shard.
    @inline(__always)
    package func local(_ kind: Int) -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        Self.slots(block(kind), shard: CPUShard.current())
    }

    @inline(__always)
    private static func slots(_ block: UnsafeMutableRawPointer, shard: Int) -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        (block + shard * shardBytes).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    }

    /// The block of `kind`, allocated and published on first use.
    @inline(__always)
    private func block(_ kind: Int) -> UnsafeMutableRawPointer {
        if let block = AtomicSlot.load(blocks + kind) { return block }
        return publishBlock(kind)
    }

    private func publishBlock(_ kind: Int) -> UnsafeMutableRawPointer {
        let bytes = shards * Self.shardBytes
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: Self.shardBytes)
        fresh.initializeMemory(as: UnsafeMutableRawPointer?.self, repeating: nil, count: bytes / MemoryLayout<UnsafeMutableRawPointer?>.stride)
        if AtomicSlot.publish(blocks + kind, fresh) { return fresh }
        // Another thread published first: use its block.
        fresh.deallocate()
        guard let winner = AtomicSlot.load(blocks + kind) else { preconditionFailure("a published block cannot disappear") }
        return winner
    }
}
