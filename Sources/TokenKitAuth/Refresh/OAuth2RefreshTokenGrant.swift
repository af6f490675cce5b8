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
/// - Client authentication is `client_secret_basic` (id and secret form-urlencoded, then
///   HTTP Basic, RFC 6749 §2.3.1) or none (`client_id` in the body).
/// - `invalid_grant` throws ``AuthError/Code/signInRequired``; other OAuth errors throw
///   ``AuthError/Code/refreshRejected`` with the server's `error` code; non-JSON, oversized or
///   malformed answers throw ``AuthError/Code/invalidResponse`` naming the problem, and so
///   does a token outside its character set (``TokenCharacterSet``): it is never returned.
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
    /// The lifetime given to an access token whose response has no `expires_in` (and that is
    /// not a JWT with `exp`, which wins); `nil` keeps such a token until the server rejects it.
    public let assumedLifetime: Duration?
    private let transport: any HTTPTransport
    private let clock: any AuthClock
    private let logger: Logger?

    /// Creates the grant; throws ``AuthError/Code/invalidConfiguration`` for an unsafe
    /// endpoint or an empty client id.
    public init(
        tokenEndpoint: URL,
        clientID: String,
        clientAuthentication: ClientAuthentication = .none,
        scope: String? = nil,
        transport: any HTTPTransport,
        clock: any AuthClock = SystemAuthClock(),
        maxResponseBytes: Int = 64 * 1024,
        requestTimeout: Duration = HTTPTransportRequest.defaultTimeout,
        assumedLifetime: Duration? = nil,
        logger: Logger? = nil
    ) throws(AuthError) {
        try TokenEndpoint.validate(tokenEndpoint)
        guard !clientID.isEmpty else { throw .invalidConfiguration("client id must not be empty") }
        self.tokenEndpoint = tokenEndpoint
        self.clientID = clientID
        self.clientAuthentication = clientAuthentication
        self.scope = scope
        self.maxResponseBytes = maxResponseBytes
        self.requestTimeout = requestTimeout
        self.assumedLifetime = assumedLifetime
        self.transport = transport
        self.clock = clock
        self.logger = logger
    }

    /// Sends `tokenSet`'s refresh token to the token endpoint and returns the new token set.
    public func refresh(_ tokenSet: TokenSet) async throws(AuthError) -> TokenSet {
        guard let refreshToken = tokenSet.refreshToken, !refreshToken.isEmpty else {
            throw .signInRequired("no refresh token is stored")
        }
        let request = makeRequest(refreshToken: refreshToken)
        logger?.debug("refreshing access token", metadata: ["endpoint": "\(request)"])
        let response: HTTPTransportResponse
        do {
            response = try await transport.send(request)
        } catch let error as AuthError {
            logger?.info("token endpoint request failed", metadata: ["reason": "\(error.message)"])
            throw error
        } catch {
            logger?.info("token endpoint request failed", metadata: ["error-type": "\(type(of: error))"])
            throw .network("token endpoint request failed (\(type(of: error)))")
        }
        do throws(AuthError) {
            let fresh = try TokenEndpointResponse.tokenSet(
                from: response, previous: tokenSet, now: clock.now, maxBytes: maxResponseBytes,
                assumedLifetime: assumedLifetime?.timeInterval)
            logger?.debug("token endpoint issued a new token set", metadata: [
                "rotated": "\(fresh.refreshToken != tokenSet.refreshToken)",
            ])
            return fresh
        } catch {
            logger?.info("token endpoint refused the refresh", metadata: ["reason": "\(error.message)"])
            throw error
        }
    }

    /// The POST request for `refreshToken`.
    func makeRequest(refreshToken: String) -> HTTPTransportRequest {
        var form: [(String, String)] = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let scope { form.append(("scope", scope)) }
        var headers = [
            HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded"),
            HTTPHeader(name: "Accept", value: "application/json"),
        ]
        switch clientAuthentication.method {
        case .none:
            form.append(("client_id", clientID))
        case .clientSecretBasic(let secret):
            let pair = "\(FormURLEncoding.encode(clientID)):\(FormURLEncoding.encode(secret))"
            headers.append(HTTPHeader(name: "Authorization", value: "Basic \(Data(pair.utf8).base64EncodedString())"))
        }
        return HTTPTransportRequest(
            method: "POST", url: tokenEndpoint, headers: headers, body: Array(FormURLEncoding.encode(form).utf8),
            timeout: requestTimeout, maxResponseBytes: maxResponseBytes)
    }
}
