import Foundation
import Logging
import TokenKitStore
internal import TokenKitPrimitives

/// The OAuth 2.0 client credentials grant (RFC 6749 §4.4): a service's own access token.
///
/// Give it to an ``AuthProvider`` as the refresher: the provider then acquires a token when
/// nothing is stored, caches it in the store, and acquires a new one (once, for all callers
/// and — with a ``RefreshLock`` — all processes) when it is within the skew of expiry.
///
/// Guarantees:
/// - The token endpoint is `https`, or `http` only on a loopback address; the client is
///   confidential (`client_secret_basic`, `client_secret_post` or `private_key_jwt`; a public
///   client is refused at init, as RFC 6749 §4.4 requires).
/// - One POST per acquisition (plus one retry when the server asks for a DPoP nonce).
/// - With `dpop: true`, tokens are DPoP-bound (RFC 9449): a key is generated the first time
///   and kept with the token set (so re-acquired tokens stay bound to the same key), every
///   request carries a proof, and `token_type` `DPoP` is accepted.
/// - A refresh token in the answer is ignored (RFC 6749 §4.4.3: the client re-authenticates).
/// - Tokens, secrets and keys never reach errors or logs.
///
/// It does not validate the access token itself (it may be opaque), nor check the granted
/// scope against the requested one.
public struct OAuth2ClientCredentialsGrant: TokenAcquirer {
    /// Where token requests go.
    public let tokenEndpoint: URL
    /// The OAuth client id.
    public let clientID: String
    /// How the client authenticates.
    public let clientAuthentication: ClientAuthentication
    /// The scope requested (space-separated), or `nil` for the server's default.
    public let scope: String?
    /// Whether tokens are bound to a DPoP key.
    public let dpop: Bool
    /// The largest response body accepted.
    public let maxResponseBytes: Int
    private let client: TokenEndpointClient
    private let clock: any TokenClock
    private let logger: Logger?

    /// Creates the grant (each request bounded in total by `requestTimeout` and in size by
    /// `maxResponseBytes`); throws ``AuthError/Code/invalidConfiguration`` for an unsafe
    /// endpoint, an empty client id, a public client, or an empty scope.
    public init(
        tokenEndpoint: URL,
        clientID: String,
        clientAuthentication: ClientAuthentication,
        scopes: [String] = [],
        dpop: Bool = false,
        transport: any HTTPTransport,
        clock: any TokenClock = SystemClock(),
        maxResponseBytes: Int = 64 * 1024,
        requestTimeout: Duration = HTTPTransportRequest.defaultTimeout,
        logger: Logger? = nil
    ) throws(AuthError) {
        self.client = try TokenEndpointClient(
            tokenEndpoint: tokenEndpoint, clientID: clientID, clientAuthentication: clientAuthentication,
            transport: transport, clock: clock, logger: logger,
            requestTimeout: requestTimeout, maxResponseBytes: maxResponseBytes)
        if case .none = clientAuthentication.method {
            throw .invalidConfiguration("the client credentials grant needs a confidential client (a client secret or a private key)")
        }
        for scope in scopes {
            guard !scope.isEmpty, scope.unicodeScalars.allSatisfy({ CharacterClass.isNQCHAR($0.value) })
            else { throw .invalidConfiguration("a scope must be non-empty printable ASCII without spaces, quotes or backslashes") }
        }
        self.tokenEndpoint = tokenEndpoint
        self.clientID = clientID
        self.clientAuthentication = clientAuthentication
        self.scope = scopes.isEmpty ? nil : scopes.joined(separator: " ")
        self.dpop = dpop
        self.maxResponseBytes = maxResponseBytes
        self.clock = clock
        self.logger = logger
    }

    /// Requests a new access token; keeps `previous`'s DPoP key (or makes one when `dpop` is
    /// on and there is none) and its metadata.
    public func acquire(replacing previous: TokenSet?) async throws(AuthError) -> TokenSet {
        var dpopKey: DPoPKey?
        var storedKey = previous?.dpopKey
        if dpop {
            if let json = storedKey {
                dpopKey = try DPoPKey(privateJWK: json)
            } else {
                let made = try DPoPKey.generate()
                dpopKey = made
                storedKey = try made.privateJWK()
            }
        } else {
            storedKey = nil
        }
        var form: [(String, String)] = [("grant_type", "client_credentials")]
        if let scope { form.append(("scope", scope)) }
        logger?.debug("requesting a client credentials token", metadata: ["endpoint": "POST \(tokenEndpoint)", "dpop": "\(dpop)"])
        let response = try await client.post(form, dpopKey: dpopKey)
        let base = TokenSet(accessToken: "", tokenType: nil, metadata: previous?.metadata ?? [:], dpopKey: storedKey)
        do throws(AuthError) {
            var fresh = try TokenEndpointResponse.tokenSet(
                from: response, previous: base, now: clock.now, maxBytes: maxResponseBytes, dpop: dpop)
            fresh.refreshToken = nil
            fresh.idToken = nil
            logger?.debug("token endpoint issued a client credentials token")
            return fresh
        } catch {
            logger?.info("token endpoint refused the client credentials grant", metadata: ["reason": "\(error.message)"])
            guard let oauthError = error.oauthError else { throw error }
            throw AuthError(
                code: .refreshRejected,
                message: "the token endpoint rejected the client credentials grant: \(oauthError) (HTTP \(response.status))",
                oauthError: oauthError)
        }
    }

    /// The same as ``acquire(replacing:)``: client credentials are re-presented, not refreshed.
    public func refresh(_ tokenSet: TokenSet) async throws(AuthError) -> TokenSet {
        try await acquire(replacing: tokenSet)
    }
}
