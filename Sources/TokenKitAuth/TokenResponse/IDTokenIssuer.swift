import Foundation

/// The OpenID provider whose ID tokens a grant accepts: its issuer identifier (the exact
/// `iss`) and the JWKS its ID tokens are signed with.
///
/// Give one to ``OAuth2RefreshTokenGrant`` or ``OAuth2ClientCredentialsGrant`` so that an ID
/// token in their answers can be validated; a stored login carries its own (see
/// ``LoginConfiguration/idTokenIssuer``). Guarantees: the JWKS URL is `https` (or `http` on a
/// loopback address) without user info or fragment. It does not fetch anything.
public struct IDTokenIssuer: Sendable, Equatable {
    /// The issuer identifier, compared byte for byte with an ID token's `iss`.
    public let issuer: String
    /// Where the issuer's signing keys are published.
    public let jwksURI: URL

    /// Throws ``AuthError/Code/invalidConfiguration`` for an empty issuer or an unsafe JWKS URL.
    public init(issuer: String, jwksURI: URL) throws(AuthError) {
        guard !issuer.isEmpty else { throw .invalidConfiguration("the ID token issuer must not be empty") }
        do { try TokenEndpoint.validate(jwksURI) } catch {
            throw .invalidConfiguration(error.message.replacingOccurrences(of: "token endpoint", with: "jwks_uri"))
        }
        self.issuer = issuer
        self.jwksURI = jwksURI
    }
}
