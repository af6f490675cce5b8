/// The minimal HTTP client that TokenKitAuth needs: send one request, get one response.
///
/// Any client can adopt it; `TokenKitURLSession` and `TokenKitAsyncHTTPClient` ship
/// adapters. Requirements on conformers:
/// - Send the request exactly once (no automatic retries of non-idempotent requests).
/// - Do not follow redirects for requests that carry credentials (the adapters shipped
///   here never follow them), and return a 3xx response as it is.
/// - Return the whole response body, or throw when it exceeds the adapter's limit or the
///   request's ``HTTPTransportRequest/maxResponseBytes``, stopping the read at that cap.
/// - Finish (or throw ``AuthError/Code/network``) within the request's
///   ``HTTPTransportRequest/timeout``, counted over the whole exchange, body included.
/// - Throw for transport failures (never encode them as a status); a non-2xx status is a
///   response, not an error. Errors thrown should not contain header values or bodies;
///   the adapters shipped here throw ``AuthError`` with code ``AuthError/Code/network``.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the server's response.
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse
}
