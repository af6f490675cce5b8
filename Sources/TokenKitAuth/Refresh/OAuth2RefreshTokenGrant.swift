import Foundation
import Logging
import TokenKitStore

/// The OAuth 2.0 refresh_token grant (RFC 6749 §6) as a ``TokenRefresher``.
///
/// Guarantees:
/// - The token endpoint is `https`, or `http` only on a loopback address (checked at init).
/// - One form-encoded POST per ``refresh(_:)``, bounded in total by ``requestTimeout`` and
///   in size by ``maxResponseBytes`` (both passed to the transport); never retried here (a rotated refresh token
///   must not be sent twice), redirects are left to the transport (the shipped adapters do
///   not follow them).
/// - Client authentication is any ``ClientAuthentication``: none (`client_id` in the body),
///   `client_secret_basic`, `client_secret_post` or `private_key_jwt` (a fresh assertion per
///   request).
/// - When the token set is DPoP-bound (``TokenKitStore/TokenSet/dpopKey``), the request
///   carries a proof signed by that key, a `use_dpop_nonce` answer is retried once with the
///   server's nonce, and the answer must be `token_type` `DPoP` (a Bearer answer is refused);
///   the key stays with the new set.
/// - The answer goes through ``TokenResponseAdmission``, the gate every grant shares:
///   `invalid_grant` throws ``AuthError/Code/signInRequired``; other OAuth errors throw
///   ``AuthError/Code/refreshRejected`` with the server's `error` code; non-JSON, oversized or
///   malformed answers throw ``AuthError/Code/invalidResponse`` naming the problem, and so
///   does a token outside its character set (``TokenCharacterSet``): it is never returned.
///   An answer without `expires_in` gets ``assumedLifetime`` (5 minutes by default).
/// - An ID token in the answer is validated like a login's — through ``idTokenIssuer``, else
///   the issuer and JWKS stored with the login (``LoginConfiguration``) when it was made for
///   this client — and must name the stored login's subject; otherwise the answer is refused
///   with ``AuthError/Code/invalidIDToken`` and nothing is returned.
/// - Tokens and the client secret never reach errors or logs.
///
/// It does not validate the new access token beyond its characters (it may be opaque); it does not check that
/// the granted scope matches the requested one.
public struct OAuth2RefreshTokenGrant: TokenRefresher {
    /// Where refresh requests go.
    public let tokenEndpoint: URL
    /// The OAuth client id.
    public let clientID: String
    /// How the client authenticates.
    public let clientAuthentication: ClientAuthentication
    /// The scope to request, or `nil` to keep the originally granted scope.
    public let scope: String?
    /// The largest response body accepted.
    public let maxResponseBytes: Int
    /// The total time one token request may take (connect, send, wait, read the body).
    public let requestTimeout: Duration
    /// The lifetime given to an access token whose response has no `expires_in` (a JWT's own
    /// `exp` still wins when the provider decides to refresh); 5 minutes by default.
    public let assumedLifetime: Duration
    /// Whose ID tokens are accepted in an answer; `nil` uses the issuer stored with the login.
    public let idTokenIssuer: IDTokenIssuer?
    private let client: TokenEndpointClient
    private let clock: any TokenClock
    private let logger: Logger?

    /// Creates the grant; throws ``AuthError/Code/invalidConfiguration`` for an unsafe
    /// endpoint or an empty client id.
    public init(
        tokenEndpoint: URL,
        clientID: String,
        clientAuthentication: ClientAuthentication = .none,
        scope: String? = nil,
        transport: any HTTPTransport,
        clock: any TokenClock = SystemClock(),
        maxResponseBytes: Int = 64 * 1024,
        requestTimeout: Duration = HTTPTransportRequest.defaultTimeout,
        assumedLifetime: Duration = TokenResponseAdmission.assumedLifetime,
        idTokenIssuer: IDTokenIssuer? = nil,
        logger: Logger? = nil
    ) throws(AuthError) {
        self.client = try TokenEndpointClient(
            tokenEndpoint: tokenEndpoint, clientID: clientID, clientAuthentication: clientAuthentication,
            transport: transport, clock: clock, logger: logger,
            requestTimeout: requestTimeout, maxResponseBytes: maxResponseBytes)
        self.tokenEndpoint = tokenEndpoint
        self.clientID = clientID
        self.clientAuthentication = clientAuthentication
        self.scope = scope
        self.maxResponseBytes = maxResponseBytes
        self.requestTimeout = requestTimeout
        self.assumedLifetime = assumedLifetime
        self.idTokenIssuer = idTokenIssuer
        self.clock = clock
        self.logger = logger
    }

    /// Sends `tokenSet`'s refresh token to the token endpoint and returns the new token set.
    public func refresh(_ tokenSet: TokenSet) async throws(AuthError) -> TokenSet {
        guard let refreshToken = tokenSet.refreshToken, !refreshToken.isEmpty else {
            throw .signInRequired("no refresh token is stored")
        }
        let dpopKey = try tokenSet.dpopKey.map { json throws(AuthError) in try DPoPKey(privateJWK: json) }
        logger?.debug("refreshing access token", metadata: ["endpoint": "POST \(tokenEndpoint)", "dpop": "\(dpopKey != nil)"])
        let response = try await client.post(form(refreshToken: refreshToken), dpopKey: dpopKey)
        let expectation = TokenResponseAdmission.Expectation(
            grant: .refreshToken, dpop: dpopKey != nil,
            idToken: IDTokenExpectation(
                issuer: idTokenIssuer ?? storedIssuer(of: tokenSet), clientID: clientID, nonce: nil,
                subject: tokenSet.metadata[IDTokenExpectation.subjectKey], required: false),
            maxBytes: maxResponseBytes, assumedLifetime: assumedLifetime)
        do throws(AuthError) {
            let fresh = try await TokenResponseAdmission.admit(
                response, expectation, previous: tokenSet, now: clock.now, transport: client.transport)
            logger?.debug("token endpoint issued a new token set", metadata: [
                "rotated": "\(fresh.refreshToken != tokenSet.refreshToken)",
            ])
            return fresh
        } catch {
            logger?.info("token endpoint refused the refresh", metadata: ["reason": "\(error.message)"])
            throw error
        }
    }

    /// The ID-token issuer stored with the login in `tokenSet`, when that login was made for
    /// this grant's client (a login of another client never lends its issuer).
    private func storedIssuer(of tokenSet: TokenSet) -> IDTokenIssuer? {
        guard let stored = try? LoginConfiguration(storedIn: tokenSet), Array(stored.clientID.utf8) == Array(clientID.utf8) else {
            return nil
        }
        return stored.idTokenIssuer
    }

    /// The grant's form fields (client authentication is added by the endpoint client).
    func form(refreshToken: String) -> [(String, String)] {
        var form: [(String, String)] = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let scope { form.append(("scope", scope)) }
        return form
    }

    /// The POST request for `refreshToken` (without a DPoP proof).
    func makeRequest(refreshToken: String) throws(AuthError) -> HTTPTransportRequest {
        try client.makeRequest(form(refreshToken: refreshToken), dpopKey: nil)
    }
}
