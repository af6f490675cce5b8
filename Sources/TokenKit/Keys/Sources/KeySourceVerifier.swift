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
    let headerCache = HeaderCache()
    let optionsReplicas = OptionsReplicas()

    /// A verifier taking keys from `source`, accepting tokens of `issuer` for `audience`.
    ///
    /// - Parameters:
    ///   - issuer: the accepted `iss` values, or ``ExpectedIssuer/anyIssuer``; it replaces
    ///     `options.issuers`.
    ///   - audience: the accepted `aud` values, or ``ExpectedAudience/anyAudience``; it
    ///     replaces `options.audiences`.
    ///   - options: every other check (required claims, leeway, algorithms, clock, …).
    public init(source: any JWTKeySource, issuer: ExpectedIssuer, audience: ExpectedAudience,
                options: ValidationOptions = ValidationOptions()) {
        var options = options
        options.issuers = issuer.accepted.map { IdentifierSet($0) }
        options.audiences = audience.accepted.map { IdentifierSet($0) }
        self.source = source
        self.options = options
    }

    /// Verifies the signature and the claims of a JWT. Suspends only when keys must be
    /// loaded. Throws ``JWTError`` (``JWTError/Code/keysUnavailable`` when the source has
    /// no keys and cannot load them).
    public func verify(_ token: String) async throws(JWTError) -> VerifiedJWT {
        try await verifier(for: token).verify(token)
    }

    /// Verifies a JWT and decodes its payload as `Payload` (after every check passed).
    public func verify<Payload: Decodable>(_ token: String, as type: Payload.Type) async throws(JWTError) -> Payload {
        try await verifier(for: token).verify(token).decode(as: type)
    }

    /// Verifies a plain JWS (header and signature only; no claim is checked).
    public func verifyJWS(_ token: String) async throws(JWTError) -> (header: JWTHeader, payload: [UInt8]) {
        try await verifier(for: token).verifyJWS(token)
    }

    /// A static verifier over the keys the source gives for `token`, sharing this
    /// verifier's header cache.
    private func verifier(for token: String) async throws(JWTError) -> JWTVerifier {
        let request = JWTKeyRequest(header: try headerCache.header(ofToken: token, limits: options.limits), token: token, limits: options.limits)
        if let keys = source.currentKeys(for: request), keys.mayHaveKey(forKeyID: request.header.keyID) {
            return JWTVerifier(keys: keys, options: options, headerCache: headerCache, optionsReplicas: optionsReplicas)
        }
        let keys = try await source.loadKeys(for: request)
        return JWTVerifier(keys: keys, options: options, headerCache: headerCache, optionsReplicas: optionsReplicas)
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
