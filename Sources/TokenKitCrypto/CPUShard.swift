#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which shard of a per-CPU structure the calling thread should use, so that threads running
/// on different CPUs touch different cache lines (see ``ShardedSlots``).
///
/// Only a hint for speed, never for safety: a thread may move to another CPU at any moment,
/// so two threads can get the same shard; every structure indexed by it stays correct when
/// that happens (its slots are atomic).
package enum CPUShard {
    /// How many shards per-CPU structures have: the configured CPUs rounded up to a power of
    /// two, at most 32 (beyond that, a few CPUs share a shard).
    package static let count: Int = {
        let cpus = max(1, min(Int(sysconf(Int32(_SC_NPROCESSORS_CONF))), 32))
        var shards = 1
        while shards < cpus { shards <<= 1 }
        return shards
    }()

    /// The calling thread's shard, in `0..<count`: its current CPU on Linux
    /// (`sched_getcpu`, a vDSO/rseq read, no system call), a hash of its thread otherwise.
    @inline(__always)
    package static func current() -> Int {
        #if os(Linux)
        let cpu = sched_getcpu()
        return cpu > 0 ? Int(cpu) & (count - 1) : 0
        #else
        let thread = UInt(bitPattern: UnsafeRawPointer(pthread_self()))
        let mixed = ((thread >> 12) &* 0x9E37_79B9_7F4A_7C15) >> 32
        return Int(truncatingIfNeeded: mixed) & (count - 1)
        #endif
    }
}
