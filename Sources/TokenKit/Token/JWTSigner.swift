internal import TokenKitCrypto
internal import TokenKitPrimitives

/// Signs JWTs (and plain JWS payloads) with one key and one algorithm.
///
/// Guarantees: the algorithm is one the key may sign with (chosen at init, so a signer can
/// never produce `none` or an algorithm the key is not bound to); the header carries `alg`,
/// the key's `kid` (unless overridden) and `typ` `JWT` by default; claims are written as
/// compact JSON that TokenKit's own strict parser accepts, within the same
/// ``ParsingLimits`` a verifier applies by default (so TokenKit never signs a token its own
/// default verifier refuses for size or nesting). Immutable and `Sendable`.
public struct JWTSigner: Sendable {
    /// The signing key.
    public let key: JWTKey
    /// The algorithm written into every header.
    public let algorithm: JWTAlgorithm
    /// The limits every token this signer makes must fit (default ``ParsingLimits/default``,
    /// the verifier's default): claims nested deeper than `maxDepth`, or a token longer than
    /// `maxTokenBytes`, are refused with ``JWTError/Code/claimsCoding`` / ``JWTError/Code/tooLarge``.
    public let limits: ParsingLimits
    /// `BASE64URL(header)` for the default ``JWTHeaderFields``, made once.
    private let defaultHeaderText: [UInt8]

    /// A signer for `key`; `algorithm` defaults to the key's only algorithm, or must be
    /// given when the key allows several (e.g. RSA: RS256…PS512).
    public init(key: JWTKey, algorithm: JWTAlgorithm? = nil, limits: ParsingLimits = .default) throws(JWTError) {
        self.limits = limits
        guard key.canSign else {
            throw .invalidKey(key.isSecret ? "the key's key_ops/use do not allow signing" : "a public key cannot sign; use the private key")
        }
        if let algorithm {
            guard key.algorithms.contains(algorithm) else {
                throw JWTError(code: .algorithmNotAllowed, reason: "the \(key.keyType) key bound to \(key.algorithms.sorted().map(\.name).joined(separator: ",")) cannot sign \(algorithm)")
            }
            self.algorithm = algorithm
        } else {
            guard let preferred = JWTAlgorithm.all.first(where: key.algorithms.contains) else {
                throw JWTError(code: .algorithmNotAllowed, reason: "the key allows no algorithm")
            }
            self.algorithm = preferred
        }
        self.key = key
        defaultHeaderText = Self.headerText(algorithm: self.algorithm, key: key, fields: JWTHeaderFields())
    }

    private static func headerText(algorithm: JWTAlgorithm, key: JWTKey, fields header: JWTHeaderFields) -> [UInt8] {
        var object = JSONObject()
        object["alg"] = .string(algorithm.name)
        if let typ = header.type { object["typ"] = .string(typ) }
        if let cty = header.contentType { object["cty"] = .string(cty) }
        if let kid = header.keyID ?? key.keyID { object["kid"] = .string(kid) }
        if let jwk = header.publicJWK { object["jwk"] = .object(jwk) }
        for (name, value) in header.custom { object[name] = value }
        var text: [UInt8] = []
        Base64URL.encode(JSONWriter.bytes(.object(object)), appendingTo: &text)
        return text
    }

    /// Signs `claims` as a JWT.
    public func sign(_ claims: JWTClaims, header: JWTHeaderFields = JWTHeaderFields()) throws(JWTError) -> String {
        let depth = JSONValue.object(claims.raw).nestingDepth(upTo: limits.maxDepth + 1)
        guard depth <= limits.maxDepth else {
            throw JWTError(code: .claimsCoding, reason: "the claims nest deeper than \(limits.maxDepth) levels (ParsingLimits.maxDepth)")
        }
        return try signJWS(payload: JSONWriter.bytes(.object(claims.raw)), header: header)
    }

    /// Signs an `Encodable` claims value (dates as seconds since 1970) as a JWT.
    public func sign(_ claims: some Encodable, header: JWTHeaderFields = JWTHeaderFields()) throws(JWTError) -> String {
        let payload: [UInt8]
        do { payload = try ClaimsCoding.encode(claims) } catch {
            throw JWTError(code: .claimsCoding, reason: "cannot encode the claims: \(ClaimsCoding.describe(error))")
        }
        do { _ = try StrictJSONParser.parseObject(payload, maxDepth: limits.maxDepth) } catch {
            throw JWTError(code: .claimsCoding, reason: "the claims do not encode to a JSON object: \(error.reason)")
        }
        return try signJWS(payload: payload, header: header)
    }

    /// Signs arbitrary payload bytes as a compact JWS.
    public func signJWS(payload: some Collection<UInt8>, header: JWTHeaderFields = JWTHeaderFields()) throws(JWTError) -> String {
        if header.custom.count > 0 { try header.checkCustom() }
        let isDefault = header.type?.isByteIdentical(to: "JWT") == true && header.contentType == nil && header.keyID == nil
            && header.publicJWK == nil && header.custom.count == 0
        var signingInput = isDefault ? defaultHeaderText : Self.headerText(algorithm: algorithm, key: key, fields: header)
        signingInput.reserveCapacity(signingInput.count + 1 + (payload.count * 4 + 2) / 3 + 700)
        signingInput.append(UInt8(ascii: "."))
        Base64URL.encode(payload, appendingTo: &signingInput)
        let signature: [UInt8]
        switch key.material {
        case .hmac(let secret):
            guard let hmac = secret.keys[algorithm] else { throw .invalidKey("the key may not sign \(algorithm)") }
            do { signature = try hmac.authenticationCode(for: signingInput) } catch { throw .invalidKey("HMAC failed", cause: error) }
        case .asymmetric(let pkey):
            guard let scheme = algorithm.scheme else { throw .invalidKey("the key may not sign \(algorithm)") }
            do { signature = try pkey.sign(signingInput, scheme: scheme) } catch { throw .invalidKey("signing failed", cause: error) }
        }
        signingInput.append(UInt8(ascii: "."))
        Base64URL.encode(signature, appendingTo: &signingInput)
        guard signingInput.count <= limits.maxTokenBytes else {
            throw JWTError(code: .tooLarge, reason: "the signed token of \(signingInput.count) bytes exceeds the limit of \(limits.maxTokenBytes) bytes (ParsingLimits.maxTokenBytes)")
        }
        return String(decoding: signingInput, as: UTF8.self)
    }
}

/// Header members a signer may set besides `alg`.
public struct JWTHeaderFields: Sendable {
    /// `typ` (default `"JWT"`; `nil` to omit).
    public var type: String?
    /// `cty`.
    public var contentType: String?
    /// `kid`; defaults to the key's own ID.
    public var keyID: String?
    /// `jwk`: a public key carried in the header (as DPoP proofs, RFC 9449 §4.2, require).
    /// The caller must pass public members only; the signer writes the object as given.
    public var publicJWK: JSONObject?
    /// Further header members (e.g. `x5t#S256`, or a private one), written after the
    /// standard ones. They may not set `alg`, `kid`, `typ`, `cty`, `crit` or `jwk` (signing
    /// throws; use ``publicJWK`` for `jwk`).
    public var custom: JSONObject

    public init(
        type: String? = "JWT", contentType: String? = nil, keyID: String? = nil,
        publicJWK: JSONObject? = nil, custom: JSONObject = JSONObject()
    ) {
        self.type = type
        self.contentType = contentType
        self.keyID = keyID
        self.publicJWK = publicJWK
        self.custom = custom
    }

    /// Refuses custom members that would override what the signer decides.
    func checkCustom() throws(JWTError) {
        for name in ["alg", "kid", "typ", "cty", "crit", "jwk"] where custom[name] != nil {
            throw JWTError(code: .malformed, reason: "custom header field \"\(name)\" is not allowed (set by the signer or its own field)")
        }
    }
}
