import Foundation
import Logging

/// An ``HTTPTransport`` that authorizes every request with an access token from an
/// ``AuthProvider`` and recovers once from a rejected token.
///
/// Guarantees:
/// - Each request gets `Authorization: Bearer <valid access token>`, replacing any
///   `Authorization` header it had. For a DPoP-bound login (RFC 9449) it gets
///   `Authorization: DPoP <token>` and a `DPoP` proof signed by the login's key, with `htm`,
///   `htu` (the URL without query and fragment), `ath` (the token's hash) and the server's
///   latest `DPoP-Nonce`, replacing any `DPoP` header it had.
/// - When a resource server answers `401` with `WWW-Authenticate: DPoP error="use_dpop_nonce"`
///   and a `DPoP-Nonce`, the request is sent once more with a proof carrying that nonce (at
///   most once per ``send(_:)``).
/// - On another `401`, it asks the provider for a token via
///   ``AuthProvider/refreshAfterRejection(of:)`` (which refreshes only if the rejected token is
///   still current, so a burst of 401s causes one refresh) and retries the request exactly
///   once. The retry's response is returned as it is, even if it is another `401`: it never
///   loops.
/// - Errors from the provider (``AuthError``) and from the wrapped transport pass through.
/// - Tracing: the caller's trace context is injected into each request's headers through
///   the bootstrapped instrument (nothing with the default no-op one), and a refresh this
///   transport causes runs in a `tokenkit.refresh` span inside the caller's span.
///
/// It does not retry on other statuses or on transport errors, and does not check which
/// host a request goes to: only wrap transports used for the API the token is meant for.
public struct AuthorizingHTTPTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let provider: AuthProvider
    private let clock: any TokenClock
    private let logger: Logger?
    private let nonces = DPoPNonces()
    private let keys = LockedValue<(json: String, key: DPoPKey)?>(nil)

    /// Wraps `base`, taking tokens from `provider`; `clock` dates DPoP proofs.
    public init(wrapping base: any HTTPTransport, provider: AuthProvider, clock: any TokenClock = SystemClock(), logger: Logger? = nil) {
        self.base = base
        self.provider = provider
        self.clock = clock
        self.logger = logger
    }

    /// Sends `request` with the access token; on a DPoP nonce challenge retries once with
    /// the nonce; on another `401`, refreshes once and retries once.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        var nonceRetried = false
        let token = try await provider.validToken()
        var response = try await sendAuthorized(request, with: token)
        if token.isDPoP, DPoPNonces.isResourceChallenge(response) {
            nonceRetried = true
            logger?.debug("resource server asked for a DPoP nonce; retrying once", metadata: ["request": "\(request)"])
            response = try await sendAuthorized(request, with: token)
        }
        guard response.status == 401 else { return response }
        logger?.info("request was rejected with 401; retrying once with a refreshed token", metadata: ["request": "\(request)"])
        let retryToken = try await provider.tokenAfterRejection(of: token.value)
        response = try await sendAuthorized(request, with: retryToken)
        if retryToken.isDPoP, !nonceRetried, DPoPNonces.isResourceChallenge(response) {
            logger?.debug("resource server asked for a DPoP nonce; retrying once", metadata: ["request": "\(request)"])
            response = try await sendAuthorized(request, with: retryToken)
        }
        return response
    }

    /// Sends `request` with `token` (and a fresh proof for DPoP), remembering any nonce.
    private func sendAuthorized(_ request: HTTPTransportRequest, with token: AccessToken) async throws -> HTTPTransportResponse {
        var copy = request
        copy.headers = TraceContextHeaders.injecting(into: copy.headers)
        if token.isDPoP, let json = token.dpopKeyJWK {
            let proof = try dpopKey(json).proof(
                method: request.method, url: request.url, accessToken: token.value,
                nonce: nonces.nonce(for: request.url), now: clock.now)
            copy.headers.replaceAll(named: "Authorization", with: "DPoP \(token.value)")
            copy.headers.replaceAll(named: "DPoP", with: proof)
            let response = try await base.send(copy)
            nonces.record(response, from: request.url)
            return response
        }
        copy.headers.replaceAll(named: "Authorization", with: "Bearer \(token.value)")
        return try await base.send(copy)
    }

    /// The parsed DPoP key for `json` (the last one is kept, so proofs do not re-parse it).
    private func dpopKey(_ json: String) throws(AuthError) -> DPoPKey {
        if let cached = keys.withValue({ $0 }), cached.json == json { return cached.key }
        let key = try DPoPKey(privateJWK: json)
        keys.withValue { $0 = (json, key) }
        return key
    }
}
