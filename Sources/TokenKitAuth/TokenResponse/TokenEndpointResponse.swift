import Foundation
import TokenKit
import TokenKitStore
internal import TokenKitPrimitives

/// The fields of a token endpoint's answer (RFC 6749 §5.1 and §5.2), read for
/// ``TokenResponseAdmission``, the one gate that decides whether an answer becomes a token set.
///
/// JSON is parsed with TokenKit's strict parser (RFC 8259, no duplicate member names), so a
/// response cannot carry two different `access_token` values that different parsers would
/// pick differently.
enum TokenEndpointResponse {
    /// Nesting allowed in a token response (they are flat objects).
    static let maxDepth = 8

    /// The error for a non-200 answer: the OAuth error when the body is one (§5.2), else the status.
    static func error(from response: HTTPTransportResponse) -> AuthError {
        guard let body = try? object(response.body),
              let code = body["error"]?.stringValue, !code.isEmpty
        else { return .invalidResponse("unexpected HTTP status \(response.status)") }
        let shown = printable(code, limit: 64)
        let detail = body["error_description"]?.stringValue.map { " (\(printable($0, limit: 200)))" } ?? ""
        if code.isByteIdentical(to: "invalid_grant") {
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
            CharacterClass.isNQSCHAR(scalar.value) ? Character(scalar) : "?"
        }
        return String(kept) + (text.unicodeScalars.count > limit ? "…" : "")
    }

    /// The body as one strict JSON object.
    static func object(_ bytes: [UInt8]) throws(AuthError) -> JSONObject {
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
    static func string(_ name: String, in body: JSONObject, required: Bool = false) throws(AuthError) -> String? {
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
    static func expiresIn(_ body: JSONObject) throws(AuthError) -> TimeInterval? {
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
