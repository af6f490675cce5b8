import Foundation

/// An HTTP request for an ``HTTPTransport``: method, URL, headers, body, and the limits of
/// its fetch: a total deadline and a response size cap, which the transport enforces on each
/// exchange, and a redirect policy, which only ``HTTPTransport/fetch(_:what:)`` applies
/// (transports never follow redirects).
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
    /// The largest response body accepted; `nil` leaves it to the transport's own cap (and
    /// ``defaultMaxResponseBytes`` in ``HTTPTransport/fetch(_:what:)``). The shipped
    /// transports stop reading at the smaller of the two, whether or not the answer has a
    /// `Content-Length`, and never buffer more. Every request TokenKit sends states it.
    public var maxResponseBytes: Int?
    /// Which redirects ``HTTPTransport/fetch(_:what:)`` follows (default ``HTTPRedirectPolicy/none``).
    /// Transports ignore it: ``HTTPTransport/send(_:)`` never follows a redirect.
    public var redirects: HTTPRedirectPolicy

    /// The total deadline of a request when the caller sets none: 30 seconds.
    public static let defaultTimeout: Duration = .seconds(30)
    /// The body cap of a fetch whose request states none: 4 MiB (the shipped transports' own
    /// default).
    public static let defaultMaxResponseBytes = 4 * 1024 * 1024

    /// Creates a request.
    public init(
        method: String = "GET", url: URL, headers: [HTTPHeader] = [], body: [UInt8] = [],
        timeout: Duration = HTTPTransportRequest.defaultTimeout, maxResponseBytes: Int? = nil,
        redirects: HTTPRedirectPolicy = .none
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.redirects = redirects
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
