/// Verifies JWTs with keys from a ``JWTKeySource`` (static, remote, per issuer), applying the
/// same checks in the same order as ``JWTVerifier``.
///
/// For each token: parse the header → ask the source for its current keys → when there are
/// none, or the token's `kid` is not among them, let the source load keys (a remote source
/// fetches at most once per cooldown, shared by all callers) → verify exactly as
/// ``JWTVerifier/verify(_:)`` does with those keys. A warm source costs no more than a
/// static ``JWTVerifier`` plus one call to ``JWTKeySource/currentKeys(for:)``.
///
/// Never follows a token's `jku`, `x5u` or `jwk` header. Immutable and `Sendable`: build
/// one per configuration and share it.
///
/// There is no default issuer or audience: a service names the ones it accepts, or opts out
/// in words (``ExpectedIssuer/anyIssuer``, ``ExpectedAudience/anyAudience``), so a verifier
/// that checks neither is visible in the code that builds it.
public struct KeySourceVerifier: Sendable {
    /// Where keys come from.
    public let source: any JWTKeySource
    /// The checks applied after the signature (its ``ValidationOptions/issuers`` and
    /// ``ValidationOptions/audiences`` are the ones given to the initializer).
    public let options: ValidationOptions
    /// The remembered verifications (see ``VerifiedTokenCaching``); `nil`: every token is
    /// verified in full.
    public var caching: VerifiedTokenCaching? { verifiedTokens?.caching }
    let headerCache = HeaderCache()
    let optionsReplicas = OptionsReplicas()
    let verifiedTokens: VerifiedTokenCache?

    /// A verifier taking keys from `source`, accepting tokens of `issuer` for `audience`.
    ///
    /// - Parameters:
    ///   - issuer: the accepted `iss` values, or ``ExpectedIssuer/anyIssuer``; it replaces
    ///     `options.issuers`.
    ///   - audience: the accepted `aud` values, or ``ExpectedAudience/anyAudience``; it
    ///     replaces `options.audiences`.
    ///   - options: every other check (required claims, leeway, algorithms, clock, …).
    ///   - caching: remember verified tokens (see ``VerifiedTokenCaching``); `nil` (the
    ///     default) verifies every token in full.
    public init(source: any JWTKeySource, issuer: ExpectedIssuer, audience: ExpectedAudience,
                options: ValidationOptions = ValidationOptions(), caching: VerifiedTokenCaching? = nil) {
        var options = options
        options.issuers = issuer.accepted.map { IdentifierSet($0) }
        options.audiences = audience.accepted.map { IdentifierSet($0) }
        self.source = source
        self.options = options
        self.verifiedTokens = caching.map(VerifiedTokenCache.init)
    }

    /// Verifies the signature and the claims of a JWT. Suspends only when keys must be
    /// loaded. Throws ``JWTError`` (``JWTError/Code/keysUnavailable`` when the source has
    /// no keys and cannot load them).
    ///
    /// With ``caching``, a token verified before with the keys the source offers now is not
    /// verified again; its claims are (see ``VerifiedTokenCaching``).
    public func verify(_ token: String) async throws(JWTError) -> VerifiedJWT {
        var lookup: VerifiedTokenLookup?
        return try await verify(token, cacheLookup: &lookup)
    }

    /// ``verify(_:)``, also saying whether the verified-token cache served the token:
    /// `cacheLookup` stays `nil` without ``caching``, and for a token refused before keys were
    /// chosen for it (an unreadable header, no keys to be had); otherwise it is set before
    /// anything is thrown.
    package func verify(_ token: String, cacheLookup: inout VerifiedTokenLookup?) async throws(JWTError) -> VerifiedJWT {
        let (header, keys) = try await keys(for: token)
        guard let verifiedTokens else { return try verifier(over: keys).verify(token) }
        return try verifiedTokens.verified(token, header: header, keys: keys, options: options, lookup: &cacheLookup) { () throws(JWTError) in
            try verifier(over: keys).verify(token)
        }
    }

    /// Verifies a JWT and decodes its payload as `Payload` (after every check passed).
    public func verify<Payload: Decodable>(_ token: String, as type: Payload.Type) async throws(JWTError) -> Payload {
        try await verify(token).decode(as: type)
    }

    /// Verifies a plain JWS (header and signature only; no claim is checked).
    public func verifyJWS(_ token: String) async throws(JWTError) -> (header: JWTHeader, payload: [UInt8]) {
        try verifier(over: try await keys(for: token).keys).verifyJWS(token)
    }

    /// A static verifier over `keys` (the ones the source gave for a token), sharing this
    /// verifier's header cache and option replicas. Made only when a token is verified in
    /// full, never for a verified-token cache hit.
    private func verifier(over keys: JWKSet) -> JWTVerifier {
        JWTVerifier(keys: keys, options: options, headerCache: headerCache, optionsReplicas: optionsReplicas)
    }

    /// The token's header and the keys the source gives for it: its current keys when they
    /// may hold the token's `kid`, otherwise the keys it loads.
    private func keys(for token: String) async throws(JWTError) -> (header: JWTHeader, keys: JWKSet) {
        let request = JWTKeyRequest(header: try headerCache.header(ofToken: token, limits: options.limits), token: token, limits: options.limits)
        if let keys = source.currentKeys(for: request), keys.mayHaveKey(forKeyID: request.header.keyID) {
            return (request.header, keys)
        }
        return (request.header, try await source.loadKeys(for: request))
    }
}

extension JWTVerifier {
    /// A verifier over `keys` that shares `headerCache` (headers do not depend on keys) and
    /// `optionsReplicas` (made from the same `options`).
    init(keys: JWKSet, options: ValidationOptions, headerCache: HeaderCache, optionsReplicas: OptionsReplicas) {
        self.keys = keys
        self.options = options
        self.headerCache = headerCache
        self.optionsReplicas = optionsReplicas
    }
}

extension HeaderCache {
    /// The header of `token`, from the cache when this header text was seen before; otherwise
    /// parsed with the full parser, which reports any problem exactly as ``JWTVerifier`` would.
    func header(ofToken token: String, limits: ParsingLimits) throws(JWTError) -> JWTHeader {
        let cached: JWTHeader?? = token.utf8.withContiguousStorageIfAvailable { bytes -> JWTHeader? in
            guard bytes.count > 0, bytes.count <= limits.maxTokenBytes, let (first, _) = TokenSplit.dots(bytes) else { return nil }
            let headerText = UnsafeBufferPointer(rebasing: bytes[0..<first])
            return try? header(for: headerText, limits: limits) { () throws(JWTError) in
                try CompactJWS.parseHeader(headerText, limits: limits)
            }
        }
        if let found = cached ?? nil { return found }
        return try CompactJWS(token, limits: limits).header
    }
}
