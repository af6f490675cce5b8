import Hummingbird
import TokenKit

/// A refusal of a protected route, answered as RFC 6750 §3 says: `401` with
/// `WWW-Authenticate: Bearer realm="…"` (plus `error="invalid_token"` and a short
/// `error_description` for a rejected token), or `403` with `error="insufficient_scope"` and
/// `scope="…"`; the body is `{"error":…,"error_description":…}` as JSON.
///
/// Guarantees: the description is one short line of RFC 6750's allowed characters (others
/// are replaced by `?`, at most 200 characters) and never contains the token.
public struct BearerError: HTTPResponseError, Sendable {
    /// `401` or `403`.
    public let status: HTTPResponse.Status
    /// The RFC 6750 error code: `invalid_token` or `insufficient_scope`, or
    /// `missing_token` (no token at all; the challenge then carries no `error`).
    public let error: String
    /// The short reason.
    public let errorDescription: String
    /// The realm of the challenge.
    public let realm: String
    /// For `insufficient_scope`: the scopes the route needs (space-separated).
    public let scope: String?

    /// No token was sent: `401`, a challenge without `error` (RFC 6750 §3.1).
    public static func missingToken(realm: String) -> BearerError {
        BearerError(status: .unauthorized, error: "missing_token", errorDescription: "a Bearer token is required", realm: realm, scope: nil)
    }

    /// The token was refused: `401`, `error="invalid_token"`.
    public static func invalidToken(_ description: String, realm: String) -> BearerError {
        BearerError(status: .unauthorized, error: "invalid_token", errorDescription: description, realm: realm, scope: nil)
    }

    /// The token lacks scopes the route needs: `403`, `error="insufficient_scope"`, `scope="…"`.
    public static func insufficientScope(required: [String], realm: String) -> BearerError {
        let scope = required.joined(separator: " ")
        return BearerError(status: .forbidden, error: "insufficient_scope",
                           errorDescription: "the token lacks the required scope: \(scope)", realm: realm, scope: scope)
    }

    /// The `WWW-Authenticate` value.
    public var challenge: String {
        var parts = ["realm=\(Self.quoted(realm))"]
        if error != "missing_token" {
            parts.append("error=\(Self.quoted(error))")
            parts.append("error_description=\(Self.quoted(Self.clean(errorDescription)))")
        }
        if let scope { parts.append("scope=\(Self.quoted(scope))") }
        return "Bearer " + parts.joined(separator: ", ")
    }

    /// The response: status, `WWW-Authenticate`, `Cache-Control: no-store` and the JSON body.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = JSONValue.object(JSONObject([
            ("error", .string(error)), ("error_description", .string(Self.clean(errorDescription))),
        ])).jsonText
        var headers = HTTPFields()
        headers[.wwwAuthenticate] = challenge
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// RFC 6750 `error_description` characters only (%x20-21 / %x23-5B / %x5D-7E), ≤ 200.
    static func clean(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(200) {
            let v = scalar.value
            out.unicodeScalars.append((0x20...0x7E).contains(v) && v != 0x22 && v != 0x5C ? scalar : "?")
        }
        return out
    }

    static func quoted(_ text: String) -> String {
        "\"" + clean(text) + "\""
    }
}
