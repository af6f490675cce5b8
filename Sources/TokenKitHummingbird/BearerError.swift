#if Hummingbird
import Hummingbird
import TokenKit
internal import TokenKitPrimitives

/// A refusal of a protected route, answered as RFC 6750 §3 says: `401` with
/// `WWW-Authenticate: Bearer realm="…"` (plus `error="invalid_token"` and a short
/// `error_description` for a rejected token), `400` with `error="invalid_request"` for a
/// request that carries its token more than once, or `403` with `error="insufficient_scope"`
/// and `scope="…"`; the body is `{"error":…,"error_description":…}` as JSON.
///
/// When the keys that would verify a well-formed token cannot be had (the issuer's JWKS is
/// down and no key set within its maximum staleness is held), the answer is `503` with
/// `Retry-After` and `error` `temporarily_unavailable` (RFC 6749 §4.1.2.1's code), without a
/// challenge: a `401` would tell every client to refresh and retry, turning an outage into a
/// refresh storm at the issuer. Its description is fixed text that never names the key
/// set's URL, host or port.
///
/// Guarantees: the description is one short line of RFC 6750's allowed characters (others
/// are replaced by `?`, at most 200 characters) and never contains the token.
///
/// A service whose errors have a body format of its own renders the refusal with
/// ``response(body:contentType:)``: the status, `WWW-Authenticate` and `Cache-Control` stay
/// the library's; the body is the service's, built from ``status``, ``publicDescription``,
/// ``requiredScopes`` and ``requiredRoles``.
public struct BearerError: HTTPResponseError, Sendable {
    /// `400`, `401`, `403` or `503`.
    public let status: HTTPResponse.Status
    /// The error code: RFC 6750's `invalid_request`, `invalid_token` or
    /// `insufficient_scope`; `missing_token` (no token at all; the challenge then carries no
    /// `error`); or `temporarily_unavailable` (`503`, no challenge).
    public let error: String
    /// The short reason.
    public let errorDescription: String
    /// The realm of the challenge.
    public let realm: String
    /// For `insufficient_scope`: the scopes the route needs (space-separated), roles as
    /// `role:NAME`, as the challenge's `scope` parameter names them.
    public let scope: String?
    /// For `insufficient_scope`: the scopes the route needs (all of them; empty otherwise).
    public let requiredScopes: [String]
    /// For `insufficient_scope`: the roles the route needs (all of them; empty otherwise).
    public let requiredRoles: [String]
    /// For `temporarily_unavailable`: whole seconds the client should wait before retrying,
    /// sent as `Retry-After` (at least 1); `nil` otherwise.
    public let retryAfterSeconds: Int?

    init(status: HTTPResponse.Status, error: String, errorDescription: String, realm: String,
         requiredScopes: [String] = [], requiredRoles: [String] = [], retryAfterSeconds: Int? = nil) {
        self.status = status
        self.error = error
        self.errorDescription = errorDescription
        self.realm = realm
        self.requiredScopes = requiredScopes
        self.requiredRoles = requiredRoles
        self.retryAfterSeconds = retryAfterSeconds
        let named = requiredScopes + requiredRoles.map { "role:\($0)" }
        self.scope = named.isEmpty ? nil : named.joined(separator: " ")
    }

    /// No token was sent: `401`, a challenge without `error` (RFC 6750 §3.1).
    public static func missingToken(realm: String) -> BearerError {
        BearerError(status: .unauthorized, error: "missing_token", errorDescription: "a Bearer token is required", realm: realm)
    }

    /// The token was refused: `401`, `error="invalid_token"`.
    public static func invalidToken(_ description: String, realm: String) -> BearerError {
        BearerError(status: .unauthorized, error: "invalid_token", errorDescription: description, realm: realm)
    }

    /// The request carries its token in a way RFC 6750 §3.1 calls malformed (two
    /// `Authorization` headers, or a token both in the header and in the query string):
    /// `400`, `error="invalid_request"`.
    public static func invalidRequest(_ description: String, realm: String) -> BearerError {
        BearerError(status: .badRequest, error: "invalid_request", errorDescription: description, realm: realm)
    }

    /// The keys that would verify the token cannot be had now: `503`, `Retry-After:` the
    /// given span rounded up to whole seconds (at least 1), no challenge, and a fixed
    /// description that names no URL, host or port.
    public static func temporarilyUnavailable(retryAfter: Duration, realm: String) -> BearerError {
        let (seconds, attoseconds) = retryAfter.components
        let whole = seconds + (attoseconds > 0 ? 1 : 0)
        return BearerError(status: .serviceUnavailable, error: "temporarily_unavailable",
                           errorDescription: "the keys that verify tokens are temporarily unavailable; retry later",
                           realm: realm, retryAfterSeconds: Int(clamping: max(1, whole)))
    }

    /// The token lacks scopes the route needs: `403`, `error="insufficient_scope"`, `scope="…"`.
    /// (`required` is taken as scopes; see ``insufficientScope(scopes:roles:realm:)``.)
    public static func insufficientScope(required: [String], realm: String) -> BearerError {
        insufficientScope(scopes: required, roles: [], realm: realm)
    }

    /// The token lacks scopes or roles the route needs: `403`, `error="insufficient_scope"`,
    /// `scope="…"` naming the scopes and, as `role:NAME`, the roles.
    public static func insufficientScope(scopes: [String], roles: [String], realm: String) -> BearerError {
        let named = (scopes + roles.map { "role:\($0)" }).joined(separator: " ")
        return BearerError(status: .forbidden, error: "insufficient_scope",
                           errorDescription: "the token lacks the required scope: \(named)", realm: realm,
                           requiredScopes: scopes, requiredRoles: roles)
    }

    /// ``errorDescription`` as it is sent: one line of RFC 6750's allowed characters (others
    /// replaced by `?`), at most 200 characters. Safe to put in a response body.
    public var publicDescription: String { Self.clean(errorDescription) }

    /// The `WWW-Authenticate` value.
    public var challenge: String {
        var parts = ["realm=\(Self.quoted(realm))"]
        if !error.isByteIdentical(to: "missing_token") {
            parts.append("error=\(Self.quoted(error))")
            parts.append("error_description=\(Self.quoted(Self.clean(errorDescription)))")
        }
        if let scope { parts.append("scope=\(Self.quoted(scope))") }
        return "Bearer " + parts.joined(separator: ", ")
    }

    /// Whether the answer carries a `WWW-Authenticate` challenge (every refusal but `503`).
    public var hasChallenge: Bool { status != .serviceUnavailable }

    /// The response: status, `WWW-Authenticate` (not for `503`), `Retry-After` (only for
    /// `503`), `Cache-Control: no-store` and the JSON body.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response(body: JSONValue.object(JSONObject([
            ("error", .string(error)), ("error_description", .string(publicDescription)),
        ])).jsonText)
    }

    /// The refusal with a body of the caller's own format: ``status``, `WWW-Authenticate:`
    /// ``challenge`` (when ``hasChallenge``), `Retry-After` (when ``retryAfterSeconds`` is
    /// set), `Cache-Control: no-store`, `Content-Type: contentType` and `body`.
    ///
    /// For services whose published errors are not RFC 6750's JSON; throw ``BearerError``
    /// from the middleware as usual and render it with this in an error middleware.
    public func response(body: String, contentType: String = "application/json") -> Response {
        var headers = HTTPFields()
        if hasChallenge { headers[.wwwAuthenticate] = challenge }
        if let retryAfterSeconds { headers[.retryAfter] = String(retryAfterSeconds) }
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// RFC 6750 `error_description` characters only (%x20-21 / %x23-5B / %x5D-7E), ≤ 200.
    static func clean(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(200) {
            let v = scalar.value
            out.unicodeScalars.append(CharacterClass.isNQSCHAR(v) ? scalar : "?")
        }
        return out
    }

    static func quoted(_ text: String) -> String {
        "\"" + clean(text) + "\""
    }
}
#endif
