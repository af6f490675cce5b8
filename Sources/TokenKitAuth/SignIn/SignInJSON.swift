import Foundation
import TokenKit
internal import TokenKitPrimitives

/// Strict JSON reading for sign-in answers (device authorization, discovery, JWKS).
enum SignInJSON {
    /// The body as one JSON object; `what` names the document in errors.
    static func object(_ response: HTTPTransportResponse, _ what: String, maxBytes: Int = 64 * 1024) throws(AuthError) -> JSONObject {
        guard response.body.count <= maxBytes else { throw .invalidResponse("\(what) is larger than \(maxBytes) bytes") }
        guard response.status == 200 else {
            throw SignInTokenRequest.oauthError(from: TokenEndpointResponse.error(from: response), rejecting: "the \(what) request")
        }
        let value: JSONValue
        do { value = try JSONValue(parsingBytes: response.body, maxDepth: 16) } catch {
            throw .invalidResponse("\(what) is not JSON (\(error.reason))")
        }
        guard let object = value.objectValue else { throw .invalidResponse("\(what) is not a JSON object") }
        return object
    }

    /// A string member that must be printable ASCII (it may be shown on a terminal).
    static func text(_ name: String, in object: JSONObject, _ what: String, required: Bool = true) throws(AuthError) -> String? {
        switch object[name] {
        case nil, .null?:
            if required { throw .invalidResponse("\(what) has no \"\(name)\"") }
            return nil
        case .string(let value)?:
            guard !value.isEmpty, value.utf8.count <= 2048, value.utf8.allSatisfy({ CharacterClass.isVSCHAR($0) }) else {
                throw .invalidResponse("\(what) has an unusable \"\(name)\" (empty, too long or not printable ASCII)")
            }
            return value
        case let other?:
            throw .invalidResponse("\(what) has a \(other.typeName) for \"\(name)\", expected a string")
        }
    }

    /// A non-negative integer member (seconds).
    static func seconds(_ name: String, in object: JSONObject, _ what: String) throws(AuthError) -> Int? {
        switch object[name] {
        case nil, .null?: return nil
        case .number(let number)?:
            let value = number.doubleValue
            guard value.isFinite, value >= 0, value < 1e7, value.rounded() == value else {
                throw .invalidResponse("\(what) has an out-of-range \"\(name)\"")
            }
            return Int(value)
        case let other?:
            throw .invalidResponse("\(what) has a \(other.typeName) for \"\(name)\", expected a number")
        }
    }

    /// A verification URI to show the user (RFC 8628 §3.2): printable ASCII, and an `https`
    /// URL (or `http` on a loopback address) without user info; `nil` when absent. Anything
    /// else is refused, so a hostile server cannot make the CLI print a `javascript:`, `file:`
    /// or plain-http phishing address as the place to sign in.
    static func verificationURI(_ name: String, in object: JSONObject, _ what: String) throws(AuthError) -> String? {
        guard let text = try text(name, in: object, what, required: false) else { return nil }
        guard let url = URL(string: text), (try? TokenEndpoint.validate(url)) != nil else {
            throw .invalidResponse("\(what) has an unsafe \"\(name)\" (an https URL is required, or http on a loopback address); it is not shown")
        }
        return text
    }

    /// A URL member that must be safe to send credentials to (https, or http on loopback).
    static func endpoint(_ name: String, in object: JSONObject, _ what: String) throws(AuthError) -> URL? {
        guard let text = try text(name, in: object, what, required: false) else { return nil }
        guard let url = URL(string: text) else { throw .invalidResponse("\(what) has an invalid \"\(name)\"") }
        do { try TokenEndpoint.validate(url) } catch {
            throw .invalidResponse("\(what) has an unsafe \"\(name)\" (https required off loopback)")
        }
        return url
    }
}
