import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A raw HTTP exchange with a test server, for checking status codes and bodies exactly.
struct HTTPResult: Sendable {
    let status: Int
    let body: Data
    /// The `WWW-Authenticate` header, if any.
    var challenge: String? = nil

    /// The body parsed as JSON.
    var json: Any? { try? JSONSerialization.jsonObject(with: body) }
    /// The body as a JSON object (empty when it is not one).
    var object: [String: Any] { (json as? [String: Any]) ?? [:] }
    /// The error body's `message`.
    var message: String? { object["message"] as? String }
    /// The error body's `statusCode`.
    var statusCode: Int? { (object["statusCode"] as? NSNumber)?.intValue }
    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }
}

enum HTTP {
    /// Sends `method url` with an optional JSON (or raw) body and bearer token.
    static func send(
        _ method: String, _ url: URL, json: [String: Any]? = nil, raw: String? = nil, bearer: String? = nil
    ) async throws -> HTTPResult {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = 30
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let raw {
            request.httpBody = Data(raw.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return HTTPResult(status: http?.statusCode ?? 0, body: data, challenge: http?.value(forHTTPHeaderField: "WWW-Authenticate"))
    }
}

extension URL {
    /// `self` with `path` appended.
    func at(_ path: String) -> URL { URL(string: absoluteString + path)! }
}
