#if Hummingbird
import HummingbirdAuth
import TokenKit

/// The identity a ``JWTAuthenticator`` puts into the request context: the verified token,
/// its scopes and its roles.
///
/// Scopes come from `scope` (a space-separated string, RFC 8693 §4.2) or `scp` (an array of
/// strings, or a string, as Entra and Okta send it); roles from the configured claim (an
/// array of strings, or a space-separated string). A claim of another type gives none.
///
/// Scopes and roles are ``TokenKit/IdentifierSet``s: a required scope or role matches only a
/// granted one with exactly its bytes (`"\u{212A}admin"`, with KELVIN SIGN, never grants
/// `"Kadmin"`), here, in ``RequireScopesMiddleware`` and in hummingbird-auth's `RolePolicy`.
public struct VerifiedToken: Sendable, RoleProviding {
    /// The verified token (header, claims, payload bytes).
    public let jwt: VerifiedJWT
    /// The granted scopes.
    public let scopes: IdentifierSet
    /// The granted roles (for hummingbird-auth's `RolePolicy`).
    public let roles: IdentifierSet

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

    /// Whether every scope in `required` was granted (each byte for byte).
    public func hasScopes(_ required: some Sequence<String>) -> Bool {
        required.allSatisfy { scopes.contains($0) }
    }

    static func strings(_ value: JSONValue?) -> IdentifierSet {
        guard let value else { return [] }
        if let text = value.stringValue { return IdentifierSet(text.split(separator: " ").map(String.init)) }
        guard let list = value.arrayValue else { return [] }
        let strings = list.compactMap(\.stringValue)
        return strings.count == list.count ? IdentifierSet(strings) : []
    }
}
#endif
