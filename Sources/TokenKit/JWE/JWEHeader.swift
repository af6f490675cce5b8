internal import TokenKitPrimitives
/// The protected header of a compact JWE, checked when parsed.
///
/// Checks, in order, each failure a ``JWTError`` naming its reason: `alg` present and a
/// string; `alg` `none` refused (``JWTError/Code/unsecured``); `alg` one of
/// ``JWEKeyAlgorithm/all`` — RSA1_5, PBES2-* and every other name refused
/// (``JWTError/Code/unsupportedAlgorithm``, the reason naming the attack); `enc` present and
/// one of ``JWEContentEncryption/all``; no `zip` (``JWTError/Code/compressionRefused``); no
/// `crit` (``JWTError/Code/unsupportedCritical``: TokenKit implements no extension); `kid`,
/// `typ`, `cty` strings when present; for ECDH-ES*, an `epk` object and canonical base64url
/// `apu`/`apv` when present. Key URLs and embedded keys (`jku`, `jwk`, `x5u`, `x5c`) are kept in
/// ``raw`` and never used.
public struct JWEHeader: Sendable {
    /// The key management algorithm.
    public let algorithm: JWEKeyAlgorithm
    /// The content encryption.
    public let encryption: JWEContentEncryption
    /// The key ID (`kid`).
    public let keyID: String?
    /// The media type of the token (`typ`).
    public let type: String?
    /// The content type (`cty`): `"JWT"` for a nested JWT.
    public let contentType: String?
    /// Every header member.
    public let raw: JSONObject
    /// The ephemeral public key (ECDH-ES*), as a JWK object (checked when it is used).
    let ephemeralKey: JSONObject?
    /// `apu` and `apv` (ECDH-ES* Agreement PartyUInfo / PartyVInfo), decoded; empty when absent.
    let partyUInfo: [UInt8]
    let partyVInfo: [UInt8]

    init(_ object: JSONObject) throws(JWTError) {
        guard let alg = object["alg"] else { throw .malformed("JWE header has no \"alg\"") }
        guard let algName = alg.stringValue else { throw .malformed("JWE header \"alg\" must be a string") }
        if algName.isASCIICaseInsensitiveEqual(to: "none") {
            throw JWTError(code: .unsecured, reason: "unsecured tokens (alg \"none\") are never accepted")
        }
        guard let algorithm = JWEKeyAlgorithm(name: algName) else {
            throw JWTError(code: .unsupportedAlgorithm, reason: JWEKeyAlgorithm.refusalReason(forName: algName) ?? "unsupported JWE alg")
        }
        guard let enc = object["enc"] else { throw .malformed("JWE header has no \"enc\"") }
        guard let encName = enc.stringValue else { throw .malformed("JWE header \"enc\" must be a string") }
        guard let encryption = JWEContentEncryption(name: encName) else {
            throw JWTError(code: .unsupportedAlgorithm, reason: "unsupported JWE enc \"\(JSONNameShortener.shorten(encName))\" (supported: \(JWEContentEncryption.all.map(\.name).joined(separator: ", ")))")
        }
        if object["zip"] != nil {
            throw JWTError(code: .compressionRefused, reason: "compressed JWE (\"zip\") is refused: decompressing untrusted input invites decompression bombs")
        }
        if object["crit"] != nil {
            throw JWTError(code: .unsupportedCritical, reason: "a JWE with a \"crit\" header is refused: TokenKit implements no JWE extension")
        }
        func optionalString(_ name: String) throws(JWTError) -> String? {
            guard let value = object[name] else { return nil }
            guard let s = value.stringValue else { throw .malformed("JWE header \"\(name)\" must be a string") }
            return s
        }
        func optionalBytes(_ name: String) throws(JWTError) -> [UInt8] {
            guard let text = try optionalString(name) else { return [] }
            do { return try Base64URL.decode(text) } catch {
                throw .malformed("JWE header \"\(name)\" is not canonical base64url: \(error.reason)")
            }
        }
        self.algorithm = algorithm
        self.encryption = encryption
        keyID = try optionalString("kid")
        type = try optionalString("typ")
        contentType = try optionalString("cty")
        raw = object
        if case .ecdhES = algorithm.family {
            guard let epk = object["epk"] else { throw .malformed("\(algorithm) needs an \"epk\" header") }
            guard let epkObject = epk.objectValue else { throw .malformed("JWE header \"epk\" must be a JSON object") }
            ephemeralKey = epkObject
            partyUInfo = try optionalBytes("apu")
            partyVInfo = try optionalBytes("apv")
        } else {
            ephemeralKey = nil
            partyUInfo = []
            partyVInfo = []
        }
    }

    /// The header of the compact JWE `token`, after the same parsing and checks as
    /// ``JWEDecrypter/decrypt(_:)`` makes before using a key (all five parts must decode).
    /// Nothing here is authenticated: use it to choose a key, never to trust the token.
    public init(compactJWE token: String, limits: ParsingLimits = ParsingLimits(maxTokenBytes: JWEDecryptionOptions.defaultMaxTokenBytes)) throws(JWTError) {
        self = try CompactJWE(token, limits: limits).header
    }

    /// Whether `cty` says the plaintext is a JWT (a nested JWT: `JWT`, any case, with or
    /// without the `application/` prefix, RFC 7515 §4.1.10, RFC 7519 §5.2).
    public var isNestedJWT: Bool {
        guard let cty = contentType else { return false }
        // Media types are ASCII case-insensitive (RFC 2045 §5.1): ASCII folding only.
        return cty.isASCIICaseInsensitiveEqual(to: "JWT") || cty.isASCIICaseInsensitiveEqual(to: "application/JWT")
    }
}
