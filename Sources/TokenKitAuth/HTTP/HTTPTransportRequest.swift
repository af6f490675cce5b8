import Foundation

/// An HTTP request for an ``HTTPTransport``: method, URL, headers, body.
///
/// `description` shows the method and the URL without its query string, and never headers
/// or body, so a request can be logged without leaking credentials.
public struct HTTPTransportRequest: Sendable, CustomStringConvertible {
    /// The method, e.g. `"GET"` or `"POST"`.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// The header fields, in order.
    public var headers: [HTTPHeader]
    /// The body bytes (empty for none).
    public var body: [UInt8]

    /// Creates a request.
    public init(method: String = "GET", url: URL, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// `METHOD scheme://host[:port]/path`, without query, headers or body.
    public var description: String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.fragment = nil
        components?.user = nil
        components?.password = nil
        return "\(method) \(components?.string ?? "<url>")"
    }
}
