import Hummingbird
import HummingbirdAuth
import TokenKit
import TokenKitHummingbird

/// The request context of every reference server: hummingbird-auth's, holding the
/// ``TokenKitHummingbird/VerifiedToken`` that TokenKit's authenticator put there.
public typealias AppRequestContext = BasicAuthRequestContext<VerifiedToken>

/// Protects routes with TokenKitHummingbird: its `JWTAuthenticator` verifies the bearer
/// token (with the issuer's verifier; roles from the `role` claim) and its
/// `RequireScopesMiddleware` demands a token, and a role when one is given.
///
/// Guarantees: a route in ``group(on:_:role:)`` runs only with a verified token (and the
/// role); otherwise the middleware throws `BearerError` (401 without or with a refused
/// token, 403 with another role), which ``APIErrorMiddleware`` renders as the apps'
/// `{"message","statusCode"}` body with the RFC 6750 `WWW-Authenticate` header.
public struct BearerProtection: Sendable {
    /// The realm named in `WWW-Authenticate` challenges.
    public let realm: String
    /// Verifies access tokens (the issuer's keys, `iss`, `aud`, `exp`).
    public let verifier: KeySourceVerifier

    /// Protection for tokens of `issuer`, challenging with `realm`.
    public init(issuer: AccessTokenIssuer, realm: String) {
        self.realm = realm
        self.verifier = issuer.verifier
    }

    /// A route group under `path` whose routes need a verified token, with `role` when given.
    public func group(on router: Router<AppRequestContext>, _ path: RouterPath = "", role: String? = nil) -> RouterGroup<AppRequestContext> {
        router.group(path)
            .add(middleware: JWTAuthenticator(verifier: verifier, realm: realm, rolesClaim: "role", context: AppRequestContext.self))
            .add(middleware: RequireScopesMiddleware(roles: role.map { [$0] } ?? [], realm: realm, context: AppRequestContext.self))
    }
}

extension BasicAuthRequestContext where Identity == VerifiedToken {
    /// The account id (`sub`) of the verified token. Routes behind
    /// ``BearerProtection/group(on:_:role:)`` always have one; elsewhere this is a 401.
    public func subject() throws(APIError) -> String {
        guard let subject = try? identity?.claims.subject() else { throw .unauthorized("missing bearer token") }
        return subject
    }
}
