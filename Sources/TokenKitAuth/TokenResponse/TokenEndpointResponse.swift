import Foundation
import TokenKit
import TokenKitStore

/// Reads a token endpoint's answer to a refresh_token grant (RFC 6749 §5.1 and §5.2).
///
/// JSON is parsed with TokenKit's strict parser (RFC 8259, no duplicate member names), so a
/// response cannot carry two different `access_token` values that different parsers would
/// pick differently.
enum TokenEndpointResponse {
    /// Nesting allowed in a token response (they are flat objects).
    static let maxDepth = 8

    /// The new token set for a `200` answer, merged with `previous`: a missing (or `null`)
    /// `refresh_token`, `scope` or `id_token` keeps the previous value, `expires_in` becomes
    /// `expires_at` relative to `now` (without one: `now + assumedLifetime` when given, else no
    /// expiry), and `metadata` and the DPoP key are carried over. `token_type` must be
    /// `Bearer`, or `DPoP` when `dpop` is true (a proof was sent). Every token received is
    /// checked with ``TokenCharacterSet`` first: a bad one is an error, never returned.
    ///
    /// Throws ``AuthError/Code/signInRequired`` for `invalid_grant`,
    /// ``AuthError/Code/refreshRejected`` for other OAuth errors, and
    /// ``AuthError/Code/invalidResponse`` for anything that is not a valid answer.
    static func tokenSet(
        from response: HTTPTransportResponse, previous: TokenSet, now: Date, maxBytes: Int, dpop: Bool = false,
        assumedLifetime: Duration? = nil
    ) throws(AuthError) -> TokenSet {
        guard response.body.count <= maxBytes else {
            throw .invalidResponse("body is larger than \(maxBytes) bytes")
        }
        guard response.status == 200 else { throw error(from: response) }
        let body = try object(response.body)
        let accessToken = try string("access_token", in: body, required: true) ?? ""
        try TokenCharacterSet.checkAccessToken(accessToken)
        let tokenType = try string("token_type", in: body, required: true) ?? ""
        let isDPoP = dpop && tokenType.lowercased() == "dpop"
        guard tokenType.lowercased() == "bearer" || isDPoP else {
            throw .invalidResponse("token_type \"\(printable(tokenType, limit: 40))\" is not \(dpop ? "Bearer or DPoP" : "Bearer")")
        }
        var expiresAt: Date?
        if let seconds = try expiresIn(body) ?? assumedLifetime?.seconds {
            expiresAt = now.addingTimeInterval(seconds)
        }
        let refreshToken = try string("refresh_token", in: body)
        if let refreshToken { try TokenCharacterSet.checkRefreshToken(refreshToken) }
        let idToken = try string("id_token", in: body)
        if let idToken { try TokenCharacterSet.checkIDToken(idToken) }
        return TokenSet(
            accessToken: accessToken,
            refreshToken: refreshToken ?? previous.refreshToken,
            idToken: idToken ?? previous.idToken,
            tokenType: isDPoP ? "DPoP" : "Bearer",
            expiresAt: expiresAt,
            scope: try string("scope", in: body) ?? previous.scope,
            metadata: previous.metadata,
            dpopKey: previous.dpopKey)
    }

    /// The error for a non-200 answer: the OAuth error when the body is one (§5.2), else the status.
    static func error(from response: HTTPTransportResponse) -> AuthError {
        guard let body = try? object(response.body),
              let code = body["error"]?.stringValue, !code.isEmpty
        else { return .invalidResponse("unexpected HTTP status \(response.status)") }
        let shown = printable(code, limit: 64)
        let detail = body["error_description"]?.stringValue.map { " (\(printable($0, limit: 200)))" } ?? ""
        if code == "invalid_grant" {
            return .signInRequired("the token endpoint rejected the refresh token: invalid_grant\(detail)", oauthError: code)
        }
        return AuthError(
            code: .refreshRejected,
            message: "the token endpoint rejected the refresh: \(shown)\(detail) (HTTP \(response.status))",
            oauthError: shown)
    }

    /// `text` restricted to the characters RFC 6749 §5.2 allows in `error` and
    /// `error_description` (printable ASCII, without quotes and backslashes), cut to `limit`.
    static func printable(_ text: String, limit: Int) -> String {
        let kept = text.unicodeScalars.prefix(limit).map { scalar -> Character in
            (0x20...0x7E).contains(scalar.value) && scalar != "\"" && scalar != "\\" ? Character(scalar) : "?"
        }
        return String(kept) + (text.unicodeScalars.count > limit ? "…" : "")
    }

    /// The body as one strict JSON object.
    private static func object(_ bytes: [UInt8]) throws(AuthError) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONValue(parsingBytes: bytes, maxDepth: maxDepth)
        } catch {
            throw .invalidResponse("body is not a JSON object (\(error.reason))")
        }
        guard let object = value.objectValue else {
            throw .invalidResponse("body is not a JSON object (found \(value.typeName))")
        }
        return object
    }

    /// A string member; `nil` when absent or `null` (an error when `required`).
    private static func string(_ name: String, in body: JSONObject, required: Bool = false) throws(AuthError) -> String? {
        switch body[name] {
        case nil, .null?:
            if required { throw .invalidResponse("missing \"\(name)\"") }
            return nil
        case .string(let value)?:
            return value
        case let other?:
            throw .invalidResponse("wrong type for \"\(name)\" (\(other.typeName), expected a string)")
        }
    }

    /// `expires_in` in seconds: a JSON number per the RFC, or a string of digits (which some
    /// servers send); `nil` when absent. Negative or absurd values are refused.
    private static func expiresIn(_ body: JSONObject) throws(AuthError) -> TimeInterval? {
        let seconds: Double
        switch body["expires_in"] {
        case nil, .null?:
            return nil
        case .number(let number)?:
            seconds = number.doubleValue
        case .string(let text)?:
            guard !text.isEmpty, text.utf8.count <= 10, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let value = Double(text)
            else { throw .invalidResponse("bad value for \"expires_in\" (not a number)") }
            seconds = value
        case let other?:
            throw .invalidResponse("wrong type for \"expires_in\" (\(other.typeName), expected a number)")
        }
        guard seconds.isFinite, seconds >= 0, seconds < 1e9 else {
            throw .invalidResponse("\"expires_in\" is out of range")
        }
        return seconds
    }
}
