/// Where a ``KeySourceVerifier`` gets the keys for a token: static keys (``JWKSet``), a
/// remote JWKS (`RemoteJWKS` in TokenKitAuth), or one source per issuer
/// (``IssuerKeySources``). Keys may change at run time.
///
/// Contract for conformers:
/// - ``currentKeys(for:)`` answers at once from memory (it is called for every token) and
///   returns `nil` only when nothing is loaded;
/// - ``loadKeys(for:)`` is called when there are no keys, or when the token's `kid` is not
///   among them; it may fetch, and must limit how often it does (a flood of tokens with
///   unknown `kid`s must not become a flood of fetches);
/// - keys come only from the source's own configuration: a token's `jku`, `x5u`, `jwk` or
///   `x5c` header is never a reason to fetch or trust anything.
public protocol JWTKeySource: Sendable {
    /// The keys usable now for `request`, without waiting; `nil` when none are loaded.
    func currentKeys(for request: JWTKeyRequest) -> JWKSet?

    /// The keys for `request` after loading them if needed (first use, or a `kid` that the
    /// current keys lack). Throws ``JWTError/Code/keysUnavailable`` when no keys can be had.
    func loadKeys(for request: JWTKeyRequest) async throws(JWTError) -> JWKSet
}

/// What a key source may look at to choose keys: the token's parsed header and, for
/// choosing between issuers, its not-yet-verified `iss`.
///
/// Nothing here is verified yet: use it to pick keys, never to trust the token.
public struct JWTKeyRequest: Sendable {
    /// The token's protected header (already checked for shape).
    public let header: JWTHeader
    let token: String
    let limits: ParsingLimits

    init(header: JWTHeader, token: String, limits: ParsingLimits) {
        self.header = header
        self.token = token
        self.limits = limits
    }

    /// The payload's `iss` when the payload is a JSON object with a string `iss`; `nil`
    /// otherwise. **Unverified**: the signature has not been checked yet.
    public func unverifiedIssuer() -> String? {
        guard let parsed = try? UnverifiedJWT(parsing: token, limits: limits) else { return nil }
        return try? parsed.claims.issuer()
    }
}
