import Foundation
internal import TokenKitPrimitives

/// Chains an ``X5CVerifier`` has verified, by their `x5c` text, so that a chain seen again
/// costs a dictionary lookup instead of a path validation.
///
/// An entry is used only while the verification time lies inside every certificate's
/// validity period on the verified path (the latest notBefore to the earliest notAfter, whole
/// seconds as OpenSSL compares them): everything else OpenSSL checked does not depend on the
/// time, so a hit gives the answer a full verification would. Outside that window the chain
/// is verified again (and the precise error reported). Failed chains are never cached.
/// Bounded (``capacity`` entries); thread-safe.
final class X5CChainCache: @unchecked Sendable {
    // @unchecked Sendable: `entries` is only touched under `lock`.
    struct Entry {
        let verifier: JWTVerifier
        let leafAlgorithms: Set<JWTAlgorithm>
        let validFrom: Int64
        let validUntil: Int64
    }

    static let capacity = 64
    private let lock = NSLock()
    private var entries: [ExactKey: Entry] = [:]  // the chain's exact bytes (no Unicode equivalence)

    /// The entry for `chain` when it is valid at `time`.
    func entry(for chain: X5CHeaderChain, at time: Int64) -> Entry? {
        let key = ExactKey(chain.entries.joined(separator: ","))
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[key], entry.validFrom <= time, time <= entry.validUntil else { return nil }
        return entry
    }

    /// Remembers a verified chain (dropping an arbitrary entry when full).
    func insert(_ entry: Entry, for chain: X5CHeaderChain) {
        let key = ExactKey(chain.entries.joined(separator: ","))
        lock.lock()
        defer { lock.unlock() }
        if entries[key] == nil, entries.count >= Self.capacity, let victim = entries.keys.first {
            entries[victim] = nil
        }
        entries[key] = entry
    }
}
