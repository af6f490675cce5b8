import Foundation
internal import TokenKitPrimitives

/// The signing keys of a service that issues its own tokens, with rotation.
///
/// Guarantees:
/// - the current key signs, with its `kid` in every header (a key without `kid` gets its
///   RFC 7638 thumbprint as `kid`);
/// - after ``rotate(to:algorithm:retiredKeyLifetime:)``, the previous key signs nothing
///   more but stays in ``publicDocument()`` and ``verificationKeys()`` until
///   `retiredKeyLifetime` has passed (set it to your longest token lifetime plus
///   leeway), so tokens it signed keep verifying until they expire;
/// - the published document holds public parameters only.
///
/// Asymmetric keys only: an HMAC secret cannot be published. A value type: keep the
/// current set where your service keeps configuration and replace it when you rotate.
public struct SigningKeySet: Sendable {
    /// A retired key and when it stops being published.
    public struct RetiredKey: Sendable {
        /// The public half of the retired key.
        public let key: JWTKey
        /// When it leaves the published set.
        public let publishedUntil: Date
    }

    /// Signs with the current key.
    public private(set) var signer: JWTSigner
    /// Keys retired by rotation, still published until their time.
    public private(set) var retired: [RetiredKey]
    /// Where "now" comes from (for rotation and pruning).
    public let clock: any TokenClock

    /// A set whose current key is `key` (a private key; `algorithm` as for ``JWTSigner``).
    /// - Throws: ``JWTError/Code/invalidKey`` for an HMAC secret or a public key.
    public init(current key: JWTKey, algorithm: JWTAlgorithm? = nil, clock: any TokenClock = SystemClock()) throws(JWTError) {
        signer = try Self.signer(for: key, algorithm: algorithm)
        retired = []
        self.clock = clock
    }

    /// Makes `key` the current signing key; the old one is published for
    /// `retiredKeyLifetime` more. Retired keys past their time are dropped.
    /// - Throws: ``JWTError/Code/invalidKey`` for a negative lifetime, an HMAC secret, a
    ///   public key, or a key whose `kid` is still published (the current key's, or a
    ///   retired key's before its `publishedUntil`): two published keys with one `kid` would
    ///   let a verifier pick the wrong one.
    public mutating func rotate(to key: JWTKey, algorithm: JWTAlgorithm? = nil, retiredKeyLifetime: Duration) throws(JWTError) {
        guard retiredKeyLifetime >= .zero else {
            throw .invalidKey("the retired key lifetime must not be negative")
        }
        let next = try Self.signer(for: key, algorithm: algorithm)
        let now = clock.now
        retired = retired.filter { $0.publishedUntil > now }
        if let kid = next.key.keyID {
            if signer.key.keyID.map({ $0.isByteIdentical(to: kid) }) == true {
                throw .invalidKey("the new key has the same kid as the current key")
            }
            if retired.contains(where: { $0.key.keyID.map { $0.isByteIdentical(to: kid) } == true }) {
                throw .invalidKey("the new key's kid is still published by a retired key; pick another kid or wait until it is unpublished")
            }
        }
        retired.append(RetiredKey(key: try signer.key.publicKey(), publishedUntil: now + retiredKeyLifetime.seconds))
        signer = next
    }

    /// Signs `claims` with the current key (its `kid` in the header, plus `header`'s fields).
    public func sign(_ claims: JWTClaims, header: JWTHeaderFields = JWTHeaderFields()) throws(JWTError) -> String {
        try signer.sign(claims, header: header)
    }

    /// Signs an `Encodable` claims value with the current key.
    public func sign(_ claims: some Encodable, header: JWTHeaderFields = JWTHeaderFields()) throws(JWTError) -> String {
        try signer.sign(claims, header: header)
    }

    /// The public keys that verify tokens of this set now: the current key and the retired
    /// keys still published.
    public func verificationKeys() throws(JWTError) -> JWKSet {
        JWKSet(keys: try publishedKeys())
    }

    /// The public JWKS document to serve at `/.well-known/jwks.json` (see
    /// ``JWKSet/publicDocument(_:)``): the current key first, then retired keys still published.
    public func publicDocument() throws(JWTError) -> String {
        try JWKSet.publicDocument(try publishedKeys())
    }

    private func publishedKeys() throws(JWTError) -> [JWTKey] {
        let now = clock.now
        return [try signer.key.publicKey()] + retired.filter { $0.publishedUntil > now }.map(\.key)
    }


    private static func signer(for key: JWTKey, algorithm: JWTAlgorithm?) throws(JWTError) -> JWTSigner {
        guard key.keyType != "oct" else { throw .invalidKey("an HMAC secret cannot be published; use an asymmetric key") }
        guard key.isSecret else { throw .invalidKey("a public key cannot sign; use the private key") }
        let named = key.keyID == nil ? key.withKeyID(try key.thumbprint()) : key
        return try JWTSigner(key: named, algorithm: algorithm)
    }
}
