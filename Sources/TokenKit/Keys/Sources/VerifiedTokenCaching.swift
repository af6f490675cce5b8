/// Whether, and how much, a ``KeySourceVerifier`` remembers the tokens it verified, so that a
/// client presenting the same access token again (as every client does until it expires) is
/// not charged a signature verification per request (the idea of Envoy's `jwt_cache`).
///
/// Guarantees, for a verifier built with caching:
/// - only successful verifications are remembered; a refused token is verified in full every
///   time it comes back (nothing negative is cached);
/// - a token is found again only by its exact bytes (the SHA-256 of the whole compact token
///   is the key; no comparison ever runs on the token text itself);
/// - a remembered token is served only while the key source still offers exactly the same
///   key objects for it (same `kid` and `alg` selection, same keys, none added or removed);
///   after a key rotation, a refetched JWKS or a `kid` that left the set, the token is
///   verified again from scratch with the current keys;
/// - every claim rule (expiry, not-before, issued-at, maximum age, issuer, audience,
///   subject, `typ`, required claims) and the options' custom check run again on every use,
///   at the verifier's clock *now*, so an expired token is refused exactly as without
///   caching (and forgotten);
/// - the cache belongs to one verifier (its options and key source) and cannot be shared with
///   another; at most ``capacity`` tokens of at most ``maxTokenBytes`` bytes are kept; when
///   full, a new token replaces one of the earliest remembered (first in, first out within
///   each of up to 16 shards).
///
/// Does not: make a token revocable (a JWT verified once stays valid until its `exp`, cached
/// or not; use ``ValidationOptions/customCheck`` for a deny list, it runs on every use), or
/// speed up HS256/384/512 (an HMAC costs about as much as the cache lookup). Memory: about
/// `capacity × (token payload + its claims once read)`, bounded by `maxTokenBytes` per token.
public struct VerifiedTokenCaching: Sendable, Equatable {
    /// The most tokens remembered at once (at least 1).
    public let capacity: Int
    /// Tokens longer than this (in bytes) are verified every time and never kept.
    public let maxTokenBytes: Int

    /// Remember up to `capacity` verified tokens of at most `maxTokenBytes` bytes each.
    ///
    /// - Precondition: `capacity >= 1` and `maxTokenBytes >= 1` (programming errors, not input).
    public init(capacity: Int, maxTokenBytes: Int = 4096) {
        precondition(capacity >= 1, "VerifiedTokenCaching: capacity must be at least 1")
        precondition(maxTokenBytes >= 1, "VerifiedTokenCaching: maxTokenBytes must be at least 1")
        self.capacity = capacity
        self.maxTokenBytes = maxTokenBytes
    }
}
