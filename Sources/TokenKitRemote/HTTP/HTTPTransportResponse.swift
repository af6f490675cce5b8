/// An HTTP response from an ``HTTPTransport``: status, headers, body.
///
/// `description` shows the status and body size only, never headers or body.
public struct HTTPTransportResponse: Sendable, CustomStringConvertible {
    /// The status code, e.g. `200`.
    public var status: Int
    /// The header fields, in order.
    public var headers: [HTTPHeader]
    /// The complete body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `HTTP <status> (<n> bytes)`.
    public var description: String { "HTTP \(status) (\(body.count) bytes)" }
}
