import Foundation

/// An OAuth 2.0 / OpenID Connect token set, as stored by a ``TokenStore``.
///
/// Its JSON form is the one `tokenkit store put --token-set` takes and `store get --reveal`
/// prints: `{"access_token":…, "refresh_token":…, "id_token":…, "token_type":"Bearer",
/// "expires_at":UNIX_SECONDS, "scope":…, "metadata":{…}, "dpop_jwk":…}`; only `access_token`
/// is required.
/// `description` never shows a token. ``init(jsonBytes:)`` (what every store uses) reads the
/// JSON with TokenKit's strict reader; the `Decodable` conformance remains for callers who
/// decode a token set inside their own documents with their own decoder.
public struct TokenSet: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The access token (a JWT or an opaque string).
    public var accessToken: String
    /// The refresh token, if the server issued one.
    public var refreshToken: String?
    /// The OpenID Connect ID token, if any.
    public var idToken: String?
    /// The token type, usually `"Bearer"`.
    public var tokenType: String?
    /// When the access token expires, as the server said (a JWT's own `exp` wins over this).
    public var expiresAt: Date?
    /// The granted scope.
    public var scope: String?
    /// Free-form, non-secret metadata (e.g. `"role": "parent"`).
    public var metadata: [String: String]
    /// The private JWK (JSON text) of the DPoP key this login's tokens are bound to
    /// (RFC 9449), or `nil` for bearer tokens. A secret: kept with the tokens, never shown.
    public var dpopKey: String?

    /// Creates a token set.
    public init(
        accessToken: String, refreshToken: String? = nil, idToken: String? = nil,
        tokenType: String? = "Bearer", expiresAt: Date? = nil, scope: String? = nil,
        metadata: [String: String] = [:], dpopKey: String? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.scope = scope
        self.metadata = metadata
        self.dpopKey = dpopKey
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
        case tokenType = "token_type"
        case expiresAt = "expires_at"
        case scope
        case metadata
        case dpopKey = "dpop_jwk"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try c.decode(String.self, forKey: .accessToken)
        refreshToken = try c.decodeIfPresent(String.self, forKey: .refreshToken)
        idToken = try c.decodeIfPresent(String.self, forKey: .idToken)
        tokenType = try c.decodeIfPresent(String.self, forKey: .tokenType)
        if let seconds = try c.decodeIfPresent(Double.self, forKey: .expiresAt) {
            guard seconds.isFinite, abs(seconds) < 1e11 else {
                throw DecodingError.dataCorruptedError(forKey: .expiresAt, in: c, debugDescription: "expires_at is out of range")
            }
            expiresAt = Date(timeIntervalSince1970: seconds)
        } else {
            expiresAt = nil
        }
        scope = try c.decodeIfPresent(String.self, forKey: .scope)
        metadata = try c.decodeIfPresent([String: String].self, forKey: .metadata) ?? [:]
        dpopKey = try c.decodeIfPresent(String.self, forKey: .dpopKey)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(accessToken, forKey: .accessToken)
        try c.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try c.encodeIfPresent(idToken, forKey: .idToken)
        try c.encodeIfPresent(tokenType, forKey: .tokenType)
        if let expiresAt {
            let seconds = expiresAt.timeIntervalSince1970
            if seconds.rounded() == seconds, abs(seconds) < 1e15 {
                try c.encode(Int64(seconds), forKey: .expiresAt)
            } else {
                try c.encode(seconds, forKey: .expiresAt)
            }
        }
        try c.encodeIfPresent(scope, forKey: .scope)
        if !metadata.isEmpty { try c.encode(metadata, forKey: .metadata) }
        try c.encodeIfPresent(dpopKey, forKey: .dpopKey)
    }

    /// Decodes a token set from its JSON with TokenKit's one strict JSON reader (RFC 8259,
    /// valid UTF-8, no duplicate member names: the same grammar as every other input); the
    /// error names the problem, never a token. See ``TokenSetJSON``.
    public init(jsonBytes: [UInt8]) throws(TokenStoreError) {
        self = try TokenSetJSON.decode(jsonBytes)
    }

    /// The canonical JSON (sorted keys, no slashes escaped).
    public func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers and a string dictionary cannot fail.
        return (try? Array(encoder.encode(self))) ?? Array("{}".utf8)
    }

    public var description: String {
        "TokenSet(access: \(accessToken.utf8.count) bytes, refresh: \(refreshToken == nil ? "no" : "yes"), expiresAt: \(expiresAt.map { Int64(exactly: $0.timeIntervalSince1970.rounded(.down)).map(String.init) ?? "out of range" } ?? "none")\(dpopKey == nil ? "" : ", dpop-bound"))"
    }
}
