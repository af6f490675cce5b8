import Foundation

/// An HTTP request for an ``HTTPTransport``: method, URL, headers, body, and the limits the
/// transport must enforce on it (a total deadline and a response size cap).
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
    /// The total time the request may take, from sending to the last byte of the response body
    /// (not an idle timeout: a server dribbling bytes is cut off at this deadline too).
    public var timeout: Duration
    /// The largest response body accepted; `nil` leaves it to the transport's own cap. The
    /// shipped transports stop reading at the smaller of the two and never buffer more.
    public var maxResponseBytes: Int?

    /// The total deadline of a request when the caller sets none: 30 seconds.
    public static let defaultTimeout: Duration = .seconds(30)

    /// Creates a request.
    public init(
        method: String = "GET", url: URL, headers: [HTTPHeader] = [], body: [UInt8] = [],
        timeout: Duration = HTTPTransportRequest.defaultTimeout, maxResponseBytes: Int? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
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
