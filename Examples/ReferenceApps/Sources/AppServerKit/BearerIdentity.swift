import Foundation
import Hummingbird
import TokenKit

/// Who sent a request, from its verified bearer token.
///
/// Until TokenKit's Hummingbird middleware (`TokenKitHummingbird`) is available to this
/// package, routes call ``BearerIdentity/require(_:verifier:role:)`` themselves; it uses
/// TokenKit's `JWTVerifier` for every check (signature, `kid`, `iss`, `aud`, `exp`).
public struct BearerIdentity: Sendable {
    /// The account id (`sub`).
    public let subject: String
    /// The `role` claim.
    public let role: String

    /// The identity of `request`'s bearer token.
    ///
    /// Throws a 401 ``APIError`` when the `Authorization` header is missing, not `Bearer`, or
    /// the token fails verification; a 403 when `role` is given and the token's differs.
    public static func require(_ request: Request, verifier: JWTVerifier, role: String? = nil) throws(APIError) -> BearerIdentity {
        guard let header = request.headers[.authorization] else {
            throw .unauthorized("missing bearer token")
        }
        let prefix = "bearer "
        guard header.count > prefix.count, header.prefix(prefix.count).lowercased() == prefix else {
            throw .unauthorized("the Authorization header must be a Bearer token")
        }
        let token = String(header.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
        let claims: AccessClaims
        do {
            claims = try verifier.verify(token, as: AccessClaims.self)
        } catch {
            throw .unauthorized("invalid or expired access token: \(error.reason)")
        }
        if let role, claims.role != role {
            throw .forbidden("this route needs a \(role) account")
        }
        return BearerIdentity(subject: claims.sub, role: claims.role)
    }
}
