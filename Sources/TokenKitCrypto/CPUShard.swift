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

    /// The calling thread's shard, in `0..<count`: its current CPU where glibc's
    /// `sched_getcpu` exists (an rseq/vDSO read, no system call), a hash of its thread
    /// otherwise.
    @inline(__always)
    package static func current() -> Int {
        if let getCPU {
            let cpu = getCPU()
            if cpu >= 0 { return Int(cpu) & (count - 1) }
        }
        #if os(Linux)
        let thread = UInt(pthread_self())
        #else
        let thread = UInt(bitPattern: pthread_self())
        #endif
        let mixed = ((thread >> 12) &* 0x9E37_79B9_7F4A_7C15) >> 32
        return Int(truncatingIfNeeded: mixed) & (count - 1)
    }

    /// glibc's `sched_getcpu`, looked up once: Swift's Glibc module does not declare it
    /// (it is a GNU extension, hidden without `_GNU_SOURCE`).
    private static let getCPU: (@convention(c) () -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_getcpu") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) () -> Int32).self)
        #else
        return nil
        #endif
    }()
}
