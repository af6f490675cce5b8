import Foundation

extension Credential {
    /// The credential as a store writes it: `createdAt` kept from the caller, else from the
    /// entry being replaced, else `now`; `updatedAt` always `now`.
    package func stamped(replacing previous: Credential?, now: Date) -> Credential {
        var stamped = self
        stamped.createdAt = createdAt ?? previous?.createdAt ?? now
        stamped.updatedAt = now
        return stamped
    }

    /// Whether a stored credential (or its absence) is what a compare-and-swap expects:
    /// both absent, or the same kind and the same secret bytes (compared in constant time).
    package static func matches(stored: Credential?, expected: Credential?) -> Bool {
        switch (stored, expected) {
        case (nil, nil): true
        case let (stored?, expected?): stored.hasSameSecret(as: expected)
        default: false
        }
    }
}
