internal import COpenSSL

/// Atomic operations on a pointer-sized slot, for TokenKit's lock-free caches.
package enum AtomicSlot {
    /// The slot's value (acquire).
    @inline(__always)
    package static func load(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> UnsafeMutableRawPointer? {
        tokenkit_slot_load(slot)
    }

    /// Empties the slot and returns what it held (acquire-release exchange).
    @inline(__always)
    package static func take(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> UnsafeMutableRawPointer? {
        tokenkit_slot_take(slot)
    }

    /// Stores `value` if the slot is empty; returns whether it did.
    @inline(__always)
    package static func publish(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ value: UnsafeMutableRawPointer) -> Bool {
        tokenkit_slot_put(slot, value) == 1
    }
}
