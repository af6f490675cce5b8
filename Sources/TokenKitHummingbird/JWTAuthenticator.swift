import Hummingbird
import HummingbirdAuth
import TokenKit

/// A hummingbird-auth `AuthenticatorMiddleware` that verifies the request's Bearer token
/// with a ``TokenKit/KeySourceVerifier`` and puts a ``VerifiedToken`` into the context.
///
/// Guarantees:
/// - the token is read from the single `Authorization` header (RFC 6750 §2.1; scheme
///   case-insensitive); tokens in query strings or bodies are never read;
/// - no `Authorization` header, or another scheme: the request goes on without identity
///   (use ``RequireScopesMiddleware`` or hummingbird-auth's `IsAuthenticatedMiddleware`
///   on protected routes);
/// - a rejected token ends the request with `401` and `WWW-Authenticate: Bearer realm="…",
///   error="invalid_token", error_description="…"` (see ``BearerError``), and so do two
///   `Authorization` headers or a Bearer credential that is not a `b64token`;
/// - a key fetch is an `await` on the verifier's key source: it never blocks the event
///   loop, and concurrent requests share one fetch.
public struct JWTAuthenticator<Context: AuthRequestContext>: AuthenticatorMiddleware where Context.Identity == VerifiedToken {
    /// The verifier (key source and claim rules).
    public let verifier: KeySourceVerifier
    /// The realm named in challenges.
    public let realm: String
    /// The claim roles are read from.
    public let rolesClaim: String

    /// An authenticator verifying with `verifier`.
    public init(verifier: KeySourceVerifier, realm: String, rolesClaim: String = "roles", context: Context.Type = Context.self) {
        self.verifier = verifier
        self.realm = realm
        self.rolesClaim = rolesClaim
    }

    /// The verified identity, `nil` when no Bearer token was sent; throws ``BearerError``
    /// when the token or the header is refused.
    public func authenticate(request: Request, context: Context) async throws -> VerifiedToken? {
        switch BearerCredential.find(in: request.headers) {
        case .none:
            return nil
        case .malformed(let why):
            throw BearerError.invalidToken(why, realm: realm)
        case .token(let token):
            do throws(JWTError) {
                return VerifiedToken(try await verifier.verify(token), rolesClaim: rolesClaim)
            } catch {
                context.logger.debug("bearer token refused", metadata: ["reason": "\(error.code)"])
                throw BearerError.invalidToken(error.reason, realm: realm)
            }
        }
    }
}
