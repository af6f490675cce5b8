/// One key source per issuer: a token's keys come from the source registered for its
/// `iss`, then are chosen by `kid` as that source decides.
///
/// Guarantees: a token whose `iss` is missing or not registered gets no keys (error
/// ``JWTError/Code/noMatchingKey``), so one issuer's keys never verify another issuer's
/// tokens. The `iss` is read before the signature is checked, only to pick the source;
/// the signature is then checked with that issuer's keys, so a token claiming another
/// issuer fails. Combine with ``ValidationOptions/issuers`` to limit accepted issuers too.
public struct IssuerKeySources: JWTKeySource {
    /// The sources, by exact issuer string.
    public let sources: [String: any JWTKeySource]

    /// Sources keyed by issuer (exact, byte-for-byte match with the token's `iss`).
    public init(_ sources: [String: any JWTKeySource]) {
        self.sources = sources
    }

    /// The current keys of the token's issuer's source.
    public func currentKeys(for request: JWTKeyRequest) -> JWKSet? {
        guard let issuer = request.unverifiedIssuer(), let source = sources[issuer] else { return nil }
        return source.currentKeys(for: request)
    }

    /// Loads keys from the token's issuer's source.
    public func loadKeys(for request: JWTKeyRequest) async throws(JWTError) -> JWKSet {
        guard let issuer = request.unverifiedIssuer() else {
            throw JWTError(code: .noMatchingKey, reason: "the token has no string \"iss\" claim to choose a key source by")
        }
        guard let source = sources[issuer] else {
            throw JWTError(code: .noMatchingKey, reason: "no key source for issuer \"\(JSONNameShortener.shorten(issuer))\"")
        }
        return try await source.loadKeys(for: request)
    }
}
