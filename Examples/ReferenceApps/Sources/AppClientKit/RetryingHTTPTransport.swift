import Foundation
import TokenKitAuth

/// Retries idempotent requests (GET, HEAD, PUT, DELETE, OPTIONS) on a 5xx answer or a
/// network failure (timeouts included), with exponential backoff.
///
/// Guarantees: at most ``attempts`` sends per request; POST and PATCH are sent exactly once;
/// the last answer or error is returned as it is. The per-request timeout belongs to the
/// wrapped transport (e.g. `URLSessionTransport(timeout:)`).
public struct RetryingHTTPTransport: HTTPTransport {
    private let base: any HTTPTransport
    /// The most sends per request (at least 1).
    public let attempts: Int
    /// The delay before the first retry; doubled for each next one.
    public let initialDelay: Duration

    /// Wraps `base`.
    public init(wrapping base: any HTTPTransport, attempts: Int = 3, initialDelay: Duration = .milliseconds(100)) {
        self.base = base
        self.attempts = max(1, attempts)
        self.initialDelay = initialDelay
    }

    /// Sends `request`, retrying as described.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        let idempotent = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(request.method.uppercased())
        var delay = initialDelay
        var attempt = 1
        while true {
            do {
                let response = try await base.send(request)
                if idempotent, response.status >= 500, attempt < attempts {
                    attempt += 1
                    try await Task.sleep(for: delay)
                    delay *= 2
                    continue
                }
                return response
            } catch let error as AuthError where error.code == .network && idempotent && attempt < attempts {
                attempt += 1
                try await Task.sleep(for: delay)
                delay *= 2
            }
        }
    }
}
