import Logging

/// An ``HTTPTransport`` that authorizes every request with a bearer token from an
/// ``AuthProvider`` and recovers once from a rejected token.
///
/// Guarantees:
/// - Each request gets `Authorization: Bearer <valid access token>`, replacing any
///   `Authorization` header it had.
/// - On `401`, it asks the provider for a token via ``AuthProvider/refreshAfterRejection(of:)``
///   (which refreshes only if the rejected token is still current, so a burst of 401s causes
///   one refresh) and retries the request exactly once. The retry's response is returned as
///   it is, even if it is another `401`: it never loops.
/// - Errors from the provider (``AuthError``) and from the wrapped transport pass through.
///
/// It does not retry on other statuses or on transport errors, and does not check which
/// host a request goes to: only wrap transports used for the API the token is meant for.
public struct AuthorizingHTTPTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let provider: AuthProvider
    private let logger: Logger?

    /// Wraps `base`, taking tokens from `provider`.
    public init(wrapping base: any HTTPTransport, provider: AuthProvider, logger: Logger? = nil) {
        self.base = base
        self.provider = provider
        self.logger = logger
    }

    /// Sends `request` with a bearer token; on `401`, refreshes once and retries once.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        let token = try await provider.validAccessToken()
        let response = try await base.send(authorized(request, with: token))
        guard response.status == 401 else { return response }
        logger?.info("request was rejected with 401; retrying once with a refreshed token", metadata: ["request": "\(request)"])
        let retryToken = try await provider.refreshAfterRejection(of: token)
        return try await base.send(authorized(request, with: retryToken))
    }

    private func authorized(_ request: HTTPTransportRequest, with token: String) -> HTTPTransportRequest {
        var copy = request
        copy.headers.replaceAll(named: "Authorization", with: "Bearer \(token)")
        return copy
    }
}
