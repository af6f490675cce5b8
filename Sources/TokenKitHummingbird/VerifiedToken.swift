import HummingbirdAuth
import TokenKit

/// The identity a ``JWTAuthenticator`` puts into the request context: the verified token,
/// its scopes and its roles.
///
/// Scopes come from `scope` (a space-separated string, RFC 8693 §4.2) or `scp` (an array of
/// strings, or a string, as Entra and Okta send it); roles from the configured claim (an
/// array of strings, or a space-separated string). A claim of another type gives none.
public struct VerifiedToken: Sendable, RoleProviding {
    /// The verified token (header, claims, payload bytes).
    public let jwt: VerifiedJWT
    /// The granted scopes.
    public let scopes: Set<String>
    /// The granted roles (for hummingbird-auth's `RolePolicy`).
    public let roles: Set<String>

    /// Reads scopes and roles from `jwt`'s claims; roles from `rolesClaim`.
    public init(_ jwt: VerifiedJWT, rolesClaim: String = "roles") {
        self.jwt = jwt
        let claims = jwt.claims
        var scopes = Self.strings(claims["scope"])
        scopes.formUnion(Self.strings(claims["scp"]))
        self.scopes = scopes
        self.roles = Self.strings(claims[rolesClaim])
    }

    /// The verified claims.
    public var claims: JWTClaims { jwt.claims }

    /// Whether every scope in `required` was granted.
    public func hasScopes(_ required: some Sequence<String>) -> Bool {
        required.allSatisfy(scopes.contains)
    }

    static func strings(_ value: JSONValue?) -> Set<String> {
        guard let value else { return [] }
        if let text = value.stringValue { return Set(text.split(separator: " ").map(String.init)) }
        guard let list = value.arrayValue else { return [] }
        let strings = list.compactMap(\.stringValue)
        return strings.count == list.count ? Set(strings) : []
    }
}
