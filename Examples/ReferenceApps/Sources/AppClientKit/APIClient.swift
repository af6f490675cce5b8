import Foundation
import TokenKitAuth

/// A JSON API client over any ``HTTPTransport``: wrap it in `AuthorizingHTTPTransport` and
/// every request carries the bearer token (refreshed once and retried once on a 401).
///
/// Guarantees: a non-2xx answer becomes a ``ClientFailure`` whose message is the server's
/// own `message` field (or `HTTP <status>` when the body has none); bodies are never echoed
/// otherwise. Does not retry by itself (see ``RetryingHTTPTransport``).
public struct APIClient: Sendable {
    /// The server's base URL, e.g. `http://127.0.0.1:3000`.
    public let baseURL: URL
    /// The transport requests go through.
    public let transport: any HTTPTransport

    /// A client for `baseURL` over `transport`.
    public init(baseURL: URL, transport: any HTTPTransport) {
        self.baseURL = baseURL
        self.transport = transport
    }

    /// Sends `method path` with `body` as JSON (none when `nil`) and returns the JSON answer
    /// (empty for an empty body). Throws the server's message on a non-2xx status.
    @discardableResult
    public func send(_ method: String, _ path: String, body: [String: any Sendable]? = nil) async throws -> JSONDocument {
        let response = try await raw(method, path, body: body)
        guard (200..<300).contains(response.status) else {
            throw ClientFailure(Self.serverMessage(response))
        }
        guard response.body.isEmpty || (try? JSONSerialization.jsonObject(with: Data(response.body))) != nil else {
            throw ClientFailure("the server's answer to \(method) \(path) is not JSON")
        }
        return JSONDocument(bytes: response.body)
    }

    /// Sends `method path` and returns the response as it is, whatever its status.
    public func raw(_ method: String, _ path: String, body: [String: any Sendable]? = nil) async throws -> HTTPTransportResponse {
        guard let url = URL(string: path, relativeTo: baseURL)?.absoluteURL else {
            throw ClientFailure("cannot build a URL for \(path)")
        }
        var headers = [HTTPHeader(name: "Accept", value: "application/json")]
        var bytes: [UInt8] = []
        if let body {
            headers.append(HTTPHeader(name: "Content-Type", value: "application/json"))
            bytes = Array(try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]))
        }
        return try await transport.send(HTTPTransportRequest(method: method, url: url, headers: headers, body: bytes))
    }

    /// The `message` of an error body, or `HTTP <status>`.
    public static func serverMessage(_ response: HTTPTransportResponse) -> String {
        if let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
           let message = object["message"] as? String, !message.isEmpty {
            return message.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        return "HTTP \(response.status)"
    }

    /// Parses a server URL argument: http(s) with a host.
    public static func serverURL(_ text: String) throws(ClientFailure) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil else {
            throw ClientFailure("--server must be an http:// or https:// URL", status: 2)
        }
        return url
    }
}

/// A JSON answer's bytes, parsed on demand (so it can cross tasks).
public struct JSONDocument: Sendable {
    /// The raw body.
    public let bytes: [UInt8]

    /// The parsed value, or `nil` for an empty or invalid body.
    public var value: Any? { bytes.isEmpty ? nil : try? JSONSerialization.jsonObject(with: Data(bytes)) }
    /// The body as an object, or `nil`.
    public var object: [String: Any]? { value as? [String: Any] }
    /// The body as an array of objects, or `nil`.
    public var array: [[String: Any]]? { value as? [[String: Any]] }
}
