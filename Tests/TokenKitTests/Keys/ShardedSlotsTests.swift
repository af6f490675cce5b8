import Foundation
import Testing
import TokenKitCrypto

/// The per-CPU slots behind the context pools and the header cache (issue 11: verification
/// on two threads must not fight over one cache line).
@Suite("Per-CPU sharded slots")
struct ShardedSlotsTests {
    /// Counts releases per kind (the release callback runs on the deinit's thread).
    final class Releases: @unchecked Sendable {
        // @unchecked Sendable: `counts` is only touched under `lock`.
        private let lock = NSLock()
        private var counts: [Int: Int] = [:]
        func add(_ kind: Int) { lock.withLock { counts[kind, default: 0] += 1 } }
        var snapshot: [Int: Int] { lock.withLock { counts } }
    }

    @Test func shardCountIsAPowerOfTwoAndEveryThreadGetsAShardInRange() async {
        let count = CPUShard.count
        #expect(count >= 1 && count <= 32 && count & (count - 1) == 0)
        let shards = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<16 { group.addTask { CPUShard.current() } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(shards.allSatisfy { (0..<count).contains($0) })
    }

    @Test func deinitReleasesEveryHeldValueOnceWithItsKind() {
        let releases = Releases()
        let values = (0..<3).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1) }
        defer { values.forEach { $0.deallocate() } }
        do {
            let slots = ShardedSlots(kinds: 3, slotsPerShard: 2) { kind, _ in releases.add(kind) }
            // One shard's slots, fixed once (the thread may change CPU between calls).
            let zero = slots.local(0), two = slots.local(2)
            #expect(AtomicSlot.publish(zero, values[0]))
            #expect(AtomicSlot.publish(two + 1, values[1]))
            // A taken value is the caller's again: deinit must not release it.
            #expect(AtomicSlot.publish(two, values[2]))
            #expect(AtomicSlot.take(two) == values[2])
        }
        #expect(releases.snapshot == [0: 1, 2: 1])
    }

    @Test func aFullSlotRefusesASecondValueAndTakeEmptiesIt() {
        let slots = ShardedSlots(kinds: 1, slotsPerShard: 1) { _, _ in }
        let a = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1), b = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        defer { a.deallocate(); b.deallocate() }
        // Pin one shard's slot (the thread may change CPU between calls).
        let slot = slots.local(0)
        #expect(AtomicSlot.publish(slot, a))
        #expect(!AtomicSlot.publish(slot, b))
        #expect(AtomicSlot.take(slot) == a)
        #expect(AtomicSlot.take(slot) == nil)
        #expect(AtomicSlot.load(slot) == nil)
    }

    @Test func shardsOfOneKindSitOnSeparateCacheLines() {
        let slots = ShardedSlots(kinds: 1, slotsPerShard: ShardedSlots.maxSlotsPerShard) { _, _ in }
        let here = UInt(bitPattern: slots.local(0))
        #expect(here % 128 == 0, "a shard starts on a 128-byte boundary")
    }
}
