import Synchronization
internal import TokenKitCrypto

/// The tokens one ``KeySourceVerifier`` verified, with the keys that were its candidates then
/// (see ``VerifiedTokenCaching`` for the guarantees). The one place a remembered
/// verification is served: ``verified(_:header:keys:options:verify:)``.
///
/// Thread-safe: entries live in shards chosen by the token's digest, each behind its own
/// lock held only for a dictionary lookup or update (never during a verification).
final class VerifiedTokenCache: Sendable {
    /// One successful verification and the key selection it was made with.
    struct Entry {
        let token: VerifiedJWT
        /// The keys the set offered for the token's `kid` and `alg` (one of them verified
        /// it). Held, not just compared by address, so no other key can take their place in
        /// memory while the entry lives.
        let candidates: [JWTKey]

        /// Whether `current` offers exactly the same keys, in the same order.
        func sameCandidates(as current: [JWTKey]) -> Bool {
            guard current.count == candidates.count else { return false }
            return zip(candidates, current).allSatisfy { $0.hasSameMaterial(as: $1) }
        }
    }

    /// SHA-256 of a whole compact token.
    struct TokenDigest: Hashable {
        let words: (UInt64, UInt64, UInt64, UInt64)

        init(_ token: String) {
            let digest = token.utf8.withContiguousStorageIfAvailable { MessageDigest.sha256.hash(UnsafeRawBufferPointer($0)) }
                ?? MessageDigest.sha256.hash(Array(token.utf8))
            words = digest.withUnsafeBytes { bytes in
                (bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                 bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            }
        }

        static func == (a: Self, b: Self) -> Bool {
            a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
        }
    }

    /// Up to `capacity` entries; when full, the entry inserted longest ago goes first.
    struct Shard {
        let capacity: Int
        var entries: [TokenDigest: Entry] = [:]
        /// Insertion order, as a ring of `capacity` slots. Every entry was inserted with a slot
        /// naming it, and overwriting a slot removes the entry it names, so `entries` never
        /// holds more than `capacity`. (A digest removed and inserted again may be named by two
        /// slots; the older one then evicts it early, which costs only a verification.)
        var order: [TokenDigest] = []
        var next = 0

        init(capacity: Int) {
            self.capacity = capacity
            order.reserveCapacity(capacity)
        }

        mutating func insert(_ entry: Entry, for digest: TokenDigest) {
            if entries.updateValue(entry, forKey: digest) != nil { return }
            if order.count < capacity {
                order.append(digest)
                return
            }
            entries.removeValue(forKey: order[next])
            order[next] = digest
            next = (next + 1) % capacity
        }
    }

    /// One shard and its lock (a `Mutex` cannot be an array element itself).
    final class LockedShard: Sendable {
        private let mutex: Mutex<Shard>
        init(_ shard: Shard) { mutex = Mutex(shard) }
        func withLock<Result>(_ body: (inout Shard) -> Result) -> Result { mutex.withLock { body(&$0) } }
    }

    let caching: VerifiedTokenCaching
    private let shards: [LockedShard]

    init(_ caching: VerifiedTokenCaching) {
        self.caching = caching
        let count = min(16, caching.capacity)
        shards = (0..<count).map { index in
            LockedShard(Shard(capacity: caching.capacity / count + (index < caching.capacity % count ? 1 : 0)))
        }
    }

    private func shard(for digest: TokenDigest) -> LockedShard {
        shards[Int(digest.words.0 % UInt64(shards.count))]
    }

    /// `token` verified: served from the cache when it was verified before with exactly the
    /// keys `keys` now offers for `header`'s `kid` and `alg`, after the claim rules and the
    /// custom check pass again at the clock now; otherwise `verify()` (the full verification
    /// with `keys`), remembered when it succeeds. Throws what verification would throw.
    /// `lookup` says which of the two it was (set before anything is thrown).
    func verified(
        _ token: String, header: JWTHeader, keys: JWKSet, options: ValidationOptions, lookup: inout VerifiedTokenLookup?,
        verify: () throws(JWTError) -> VerifiedJWT
    ) throws(JWTError) -> VerifiedJWT {
        lookup = .miss
        guard token.utf8.count <= caching.maxTokenBytes, let algorithm = header.algorithm,
              let candidates = try? keys.candidates(forKeyID: header.keyID, algorithm: algorithm)
        else { return try verify() }
        let digest = TokenDigest(token)
        let shard = shard(for: digest)
        if let entry = shard.withLock({ $0.entries[digest] }), entry.sameCandidates(as: candidates) {
            lookup = .hit
            do throws(JWTError) {
                try ClaimValidator.recheck(entry.token, options: options)
                return entry.token
            } catch {
                _ = shard.withLock { $0.entries.removeValue(forKey: digest) }
                throw error
            }
        }
        let verified = try verify()
        shard.withLock { $0.insert(Entry(token: verified, candidates: candidates), for: digest) }
        return verified
    }

    /// How many tokens are remembered now (for tests and diagnostics).
    var count: Int { shards.reduce(0) { total, shard in total + shard.withLock { $0.entries.count } } }
}

/// What a verifier with a ``VerifiedTokenCache`` did with one token (for the services'
/// `tokenkit_verification_cache_total{outcome}` series).
package enum VerifiedTokenLookup: Sendable {
    /// Found, verified before with the same keys: only its claims were checked again (and may
    /// still have refused it, e.g. expired).
    case hit
    /// Verified in full: not remembered, remembered with other keys, or not eligible.
    case miss
}

extension JWTKey {
    /// Whether both keys hold the very same key object (not merely equal bytes): the same
    /// HMAC secret or the same OpenSSL key.
    func hasSameMaterial(as other: JWTKey) -> Bool {
        switch (material, other.material) {
        case (.hmac(let a), .hmac(let b)): a === b
        case (.asymmetric(let a), .asymmetric(let b)): a === b
        default: false
        }
    }
}
