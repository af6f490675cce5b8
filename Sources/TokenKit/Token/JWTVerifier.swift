internal import TokenKitCrypto
internal import TokenKitPrimitives

/// Verifies JWTs (and plain JWS) against a fixed set of keys and options.
///
/// Order of checks, each failure a ``JWTError`` naming its reason: size limit → structure
/// and canonical base64url of all three parts → header JSON → `alg` (`none` refused,
/// unknown refused, not allowed refused) → `crit` (always refused: TokenKit implements no
/// extension) → key selection by `kid`/`alg` → signature → payload JSON → claims.
/// The payload is not parsed before the signature has been checked.
///
/// A verifier is immutable and `Sendable`: build it once and share it between tasks.
public struct JWTVerifier: Sendable {
    /// The keys tokens are checked against.
    public let keys: JWKSet
    /// The checks applied after the signature.
    public let options: ValidationOptions
    /// Headers already parsed by this verifier (see ``HeaderCache``).
    let headerCache: HeaderCache
    /// Per-CPU copies of `options` for the claim checks (see ``OptionsReplicas``).
    let optionsReplicas: OptionsReplicas

    /// A verifier with a single key.
    public init(key: JWTKey, options: ValidationOptions = ValidationOptions()) {
        self.init(keys: JWKSet(keys: [key]), options: options)
    }

    /// A verifier choosing among several keys by `kid` (see ``JWKSet``).
    public init(keys: JWKSet, options: ValidationOptions = ValidationOptions()) {
        self.keys = keys
        self.options = options
        self.headerCache = HeaderCache()
        self.optionsReplicas = OptionsReplicas()
    }

    /// Verifies the signature and the claims of a JWT.
    public func verify(_ token: String) throws(JWTError) -> VerifiedJWT {
        switch fastVerify(token, claims: true) {
        case .verified(let verified): return verified
        case .failed(let error): throw error
        case .jws, .fallback: break
        }
        let jws = try checkSignature(CompactJWS(token, limits: options.limits))
        return try ClaimValidator.verified(header: jws.header, payload: jws.payload, options: options)
    }

    /// Verifies a JWT and decodes its payload as `Payload` (after every check passed).
    public func verify<Payload: Decodable>(_ token: String, as type: Payload.Type) throws(JWTError) -> Payload {
        try verify(token).decode(as: type)
    }

    /// Verifies a plain JWS (RFC 7515 compact form): header and signature only. The payload
    /// may be any bytes; no claim is checked. Returns the header and the payload bytes.
    public func verifyJWS(_ token: String) throws(JWTError) -> (header: JWTHeader, payload: [UInt8]) {
        switch fastVerify(token, claims: false) {
        case .jws(let header, let payload): return (header, payload)
        case .failed(let error): throw error
        case .verified, .fallback: break
        }
        let jws = try checkSignature(CompactJWS(token, limits: options.limits))
        return (jws.header, jws.payload)
    }

    private func checkSignature(_ jws: CompactJWS) throws(JWTError) -> CompactJWS {
        let header = jws.header
        let algorithm = try Self.admittedAlgorithm(header, options: options)
        let candidates = try keys.candidates(forKeyID: header.keyID, algorithm: algorithm)
        try Self.checkSignature(jws.signature, for: jws.signingInput, algorithm: algorithm, candidates: candidates)
        return jws
    }

    /// The header's algorithm after the checks every verifier makes before choosing a key:
    /// `none` refused, unknown refused, not in `options.algorithms` refused, any `crit` refused.
    static func admittedAlgorithm(_ header: JWTHeader, options: ValidationOptions) throws(JWTError) -> JWTAlgorithm {
        if header.algorithmName.isASCIICaseInsensitiveEqual(to: "none") {
            throw JWTError(code: .unsecured, reason: "unsecured tokens (alg \"none\") are never accepted")
        }
        guard let algorithm = header.algorithm else {
            throw JWTError(code: .unsupportedAlgorithm, reason: "unsupported algorithm \"\(JSONNameShortener.shorten(header.algorithmName))\"")
        }
        if let allowed = options.algorithms, !allowed.contains(algorithm) {
            throw JWTError(code: .algorithmNotAllowed, reason: "algorithm \(algorithm) is not allowed (allowed: \(allowed.sorted().map(\.name).joined(separator: ", ")))")
        }
        if let critical = header.critical {
            throw JWTError(code: .unsupportedCritical, reason: "unsupported critical header parameter(s): \(critical.map { JSONNameShortener.shorten($0) }.joined(separator: ", "))")
        }
        return algorithm
    }

    /// Succeeds when one of `candidates` verifies `signature`; otherwise throws the
    /// bad-signature error naming the last reason.
    static func checkSignature(
        _ signature: some ContiguousBytesLike, for signingInput: some ContiguousBytesLike,
        algorithm: JWTAlgorithm, candidates: [JWTKey]
    ) throws(JWTError) {
        var lastReason = "signature does not match"
        for key in candidates {
            switch Self.check(signature, for: signingInput, algorithm: algorithm, key: key) {
            case .valid: return
            case .invalid(let reason): lastReason = reason
            }
        }
        throw badSignature(lastReason, tried: candidates.count)
    }

    /// The error of a signature that no candidate key verified.
    static func badSignature(_ reason: String, tried: Int) -> JWTError {
        let which = tried == 1 ? "" : " (tried \(tried) keys)"
        return JWTError(code: .badSignature, reason: "bad signature: \(reason)\(which)")
    }

    static func check(_ jws: CompactJWS, algorithm: JWTAlgorithm, key: JWTKey) -> SignatureCheck {
        check(jws.signature, for: jws.signingInput, algorithm: algorithm, key: key)
    }

    /// Inlined so that the key is read in place from the caller's key set: passed as an
    /// argument, it was copied, retaining (and then releasing) its material and `kid`, which
    /// every thread verifying with the same key shares.
    @inline(__always)
    static func check(
        _ signature: some ContiguousBytesLike, for signingInput: some ContiguousBytesLike, algorithm: JWTAlgorithm, key: JWTKey
    ) -> SignatureCheck {
        switch key.material {
        case .hmac(let secret):
            guard let valid = secret.isValid(signature, for: signingInput, algorithm: algorithm) else {
                return .invalid(reason: "the key may not verify \(algorithm)")
            }
            return valid ? .valid : .invalid(reason: "signature does not match")
        case .asymmetric(let pkey):
            guard let scheme = algorithm.scheme else { return .invalid(reason: "the key may not verify \(algorithm)") }
            return pkey.verify(signature, for: signingInput, scheme: scheme)
        }
    }
}

/// A JWT whose signature and claims were verified.
public struct VerifiedJWT: Sendable {
    /// The protected header.
    public let header: JWTHeader
    /// The verified claims (parsed from ``payload`` on first access, then kept).
    public var claims: JWTClaims { claimsCache.claims }
    /// The payload bytes exactly as signed.
    public let payload: [UInt8]
    let claimsCache: ClaimsCache

    init(header: JWTHeader, claims: JWTClaims, payload: [UInt8]) {
        self.header = header
        self.payload = payload
        claimsCache = .make(payload: payload, limits: .default, claims: claims)
    }

    /// A token whose payload was validated but not yet materialised.
    init(header: JWTHeader, validatedPayload payload: [UInt8], limits: ParsingLimits) {
        self.header = header
        self.payload = payload
        claimsCache = .make(payload: payload, limits: limits)
    }

    /// Decodes the verified payload as `Payload` with Foundation's `JSONDecoder` (dates as
    /// seconds since 1970). The payload was already checked for duplicates and limits.
    public func decode<Payload: Decodable>(as type: Payload.Type) throws(JWTError) -> Payload {
        do { return try ClaimsCoding.decoder().decode(type, from: ClaimsCoding.data(payload)) } catch {
            throw JWTError(code: .claimsCoding, reason: "cannot decode the claims as \(Payload.self): \(ClaimsCoding.describe(error))")
        }
    }
}
