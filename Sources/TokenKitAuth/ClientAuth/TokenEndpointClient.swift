import Foundation
import Logging

/// Sends one grant to a token endpoint: the form, the client authentication, a DPoP proof
/// when the login is DPoP-bound, and one retry when the server asks for a DPoP nonce.
///
/// Shared by every grant (refresh, client credentials, code exchange, device polling) so that
/// each gets the same client authentication, proof, response cap and error mapping; what the
/// answer means is decided by ``TokenResponseAdmission``. Never retries for any other reason.
struct TokenEndpointClient: Sendable {
    let tokenEndpoint: URL
    let clientID: String
    let clientAuthentication: ClientAuthentication
    let transport: any HTTPTransport
    let clock: any TokenClock
    let logger: Logger?
    /// The total time one request may take (passed to the transport as its deadline).
    let requestTimeout: Duration
    /// The largest response body read (the transport stops reading there).
    let maxResponseBytes: Int
    let nonces = DPoPNonces()

    /// Throws ``AuthError/Code/invalidConfiguration`` for an unsafe endpoint (see
    /// ``TokenEndpoint/validate(_:)``) or an empty client id.
    init(
        tokenEndpoint: URL, clientID: String, clientAuthentication: ClientAuthentication,
        transport: any HTTPTransport, clock: any TokenClock, logger: Logger?,
        requestTimeout: Duration = HTTPTransportRequest.defaultTimeout, maxResponseBytes: Int = 64 * 1024
    ) throws(AuthError) {
        try TokenEndpoint.validate(tokenEndpoint)
        guard !clientID.isEmpty else { throw .invalidConfiguration("client id must not be empty") }
        self.tokenEndpoint = tokenEndpoint
        self.clientID = clientID
        self.clientAuthentication = clientAuthentication
        self.transport = transport
        self.clock = clock
        self.logger = logger
        self.requestTimeout = requestTimeout
        self.maxResponseBytes = maxResponseBytes
    }

    /// POSTs `form` (plus the client authentication) with a proof signed by `dpopKey` when
    /// given; on `use_dpop_nonce` retries once with the server's nonce. Transport failures
    /// become ``AuthError/Code/network``; the response is returned whatever its status.
    func post(_ form: [(String, String)], dpopKey: DPoPKey?) async throws(AuthError) -> HTTPTransportResponse {
        let response = try await send(form, dpopKey: dpopKey)
        guard let dpopKey, DPoPNonces.isTokenEndpointChallenge(response) else { return response }
        logger?.debug("token endpoint asked for a DPoP nonce; retrying once", metadata: ["endpoint": "\(tokenEndpoint)"])
        return try await send(form, dpopKey: dpopKey)
    }

    private func send(_ form: [(String, String)], dpopKey: DPoPKey?) async throws(AuthError) -> HTTPTransportResponse {
        let request = try makeRequest(form, dpopKey: dpopKey)
        let response: HTTPTransportResponse
        do {
            // The fetch gate: this request's cap and deadline, no redirect followed.
            response = try await transport.fetch(request, what: "token endpoint").response
        } catch {
            logger?.info("token endpoint request failed", metadata: ["reason": "\(error.message)"])
            throw error
        }
        if dpopKey != nil { nonces.record(response, from: tokenEndpoint) }
        return response
    }

    /// The POST request: form-encoded body, `Accept: application/json`, client authentication,
    /// and a `DPoP` header when `dpopKey` is given.
    func makeRequest(_ grantForm: [(String, String)], dpopKey: DPoPKey?) throws(AuthError) -> HTTPTransportRequest {
        let now = clock.now
        var request = try clientAuthentication.formPost(to: tokenEndpoint, clientID: clientID, form: grantForm, now: now)
        request.timeout = requestTimeout
        request.maxResponseBytes = maxResponseBytes
        request.redirects = .none
        if let dpopKey {
            let proof = try dpopKey.proof(method: "POST", url: tokenEndpoint, nonce: nonces.nonce(for: tokenEndpoint), now: now)
            request.headers.append(HTTPHeader(name: "DPoP", value: proof))
        }
        return request
    }
}
