#if Hummingbird
import Hummingbird
import HummingbirdAuth

/// Lets a request through only when the context holds a ``VerifiedToken`` granting every
/// required scope (and role, when given).
///
/// Scopes and roles match byte for byte (``VerifiedToken``'s ``TokenKit/IdentifierSet``s):
/// a canonically equivalent spelling never satisfies a requirement.
///
/// No identity: `401` with `WWW-Authenticate: Bearer realm="…"` and error `missing_token`
/// in the body. Missing scopes or roles: `403` with `error="insufficient_scope"` and
/// `scope="…"` (the scopes the route needs; for roles, `role:NAME`). Each of the two is
/// counted in `tokenkit_verifications_total{result}` (`missing_token`,
/// `insufficient_scope`; a token refused for scope was counted `ok` by the authenticator
/// when it verified).
public struct RequireScopesMiddleware<Context: AuthRequestContext>: RouterMiddleware where Context.Identity == VerifiedToken {
    /// Scopes the token must grant (all of them).
    public let scopes: [String]
    /// Roles the token must hold (all of them).
    public let roles: [String]
    /// The realm named in challenges.
    public let realm: String
    let metrics: VerificationMetrics

    /// Requires `scopes` (and `roles`) on the routes behind this middleware.
    public init(_ scopes: [String] = [], roles: [String] = [], realm: String, context: Context.Type = Context.self) {
        self.scopes = scopes
        self.roles = roles
        self.realm = realm
        self.metrics = VerificationMetrics()
    }

    /// Passes the request on, or throws ``BearerError``.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let identity = context.identity else {
            metrics.count(.missingToken)
            throw BearerError.missingToken(realm: realm)
        }
        guard identity.hasScopes(scopes), roles.allSatisfy({ identity.roles.contains($0) }) else {
            metrics.count(.insufficientScope)
            throw BearerError.insufficientScope(scopes: scopes, roles: roles, realm: realm)
        }
        return try await next(request, context)
    }
}
#endif
