/// The minimal HTTP client TokenKit needs: send one request, get one response.
///
/// Any client can adopt it; `TokenKitURLSession` and `TokenKitAsyncHTTPClient` ship
/// adapters. Library code never calls ``send(_:)`` directly: every fetch goes through the
/// gate ``fetch(_:what:)``, which applies the request's redirect policy and total deadline and
/// checks its body cap again, so a conformer that gets one of the rules below wrong still
/// cannot make TokenKit follow a redirect or outlive a deadline. Requirements on conformers:
/// - Send the request exactly once (no automatic retries of non-idempotent requests).
/// - **Never follow a redirect**: return a 3xx response as it is, whatever
///   ``HTTPTransportRequest/redirects`` says (that policy is the gate's, the only one).
/// - Stop reading the body at ``HTTPTransportRequest/maxResponseBytes`` (or the adapter's
///   smaller own cap), whether or not a `Content-Length` was sent, drop the connection and
///   throw; refuse at once a `Content-Length` larger than the cap.
/// - Finish (or throw ``AuthError/Code/network``) within the request's
///   ``HTTPTransportRequest/timeout``, counted over the whole exchange, body included.
/// - Throw for transport failures (never encode them as a status); a non-2xx status is a
///   response, not an error. Errors thrown should not contain header values or bodies;
///   the adapters shipped here throw ``AuthError`` with code ``AuthError/Code/network``.
public protocol HTTPTransport: Sendable {
    /// Sends `request` once, without following redirects, and returns the server's response.
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse
}
