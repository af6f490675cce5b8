import Foundation
import Logging
import TokenKit
internal import TokenKitCrypto
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
/// - Every answer goes through ``TokenResponseAdmission`` (character sets, `token_type` —
///   `DPoP` exactly when a proof was sent —, `expires_in` or 5 minutes, and an ID token
///   validated through ``idTokenIssuer`` or the answer refused). A refresh token in the answer
///   is ignored (RFC 6749 §4.4.3: the client re-authenticates).
/// - The cached token is keyed by everything that changes it: the token endpoint, the client
///   id, the scopes and the DPoP key (or its absence) are recorded with it
///   (``bindingMetadataKey``), and a stored set recorded for another configuration is never
///   handed out (``accepts(_:)``): a new token is acquired in its place.
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
    /// Whose ID tokens are accepted in an answer (`nil`: an answer with an ID token is refused).
    public let idTokenIssuer: IDTokenIssuer?
    /// The lifetime given to an access token whose answer has no `expires_in` (5 minutes by default).
    public let assumedLifetime: Duration
    private let client: TokenEndpointClient
    private let clock: any TokenClock
    private let logger: Logger?
    /// The requested scopes, sorted and without repeats (order does not change a token).
    private let scopes: [String]

    /// Creates the grant (each request bounded in total by `requestTimeout` and in size by
    /// `maxResponseBytes`; an answer without `expires_in` lives `assumedLifetime`); throws ``AuthError/Code/invalidConfiguration`` for an unsafe
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
        assumedLifetime: Duration = TokenResponseAdmission.assumedLifetime,
        idTokenIssuer: IDTokenIssuer? = nil,
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
        self.scopes = Set(scopes).sorted()
        self.dpop = dpop
        self.idTokenIssuer = idTokenIssuer
        self.assumedLifetime = assumedLifetime
        self.maxResponseBytes = maxResponseBytes
        self.clock = clock
        self.logger = logger
    }

    /// The metadata key under which a cached token set records the configuration it was
    /// acquired for (``binding(dpopThumbprint:)``).
    public static let bindingMetadataKey = "client_credentials.binding"

    /// Whether `stored` was acquired for this configuration (same token endpoint, client id,
    /// scopes and DPoP key, or none of a key when DPoP is off). A set recorded for another
    /// configuration, or without a record (a login, a set from an older release), is not.
    public func accepts(_ stored: TokenSet) -> Bool {
        guard let recorded = stored.metadata[Self.bindingMetadataKey] else { return false }
        let thumbprint: String?
        if dpop {
            guard let json = stored.dpopKey, let key = try? DPoPKey(privateJWK: json) else { return false }
            thumbprint = key.thumbprint
        } else {
            guard stored.dpopKey == nil else { return false }
            thumbprint = nil
        }
        return Array(recorded.utf8) == Array(binding(dpopThumbprint: thumbprint).utf8)
    }

    /// `v1:` and the base64url SHA-256 of the token endpoint, the client id, the sorted scopes
    /// and the DPoP key thumbprint (or `bearer`), joined by NUL bytes.
    func binding(dpopThumbprint: String?) -> String {
        var input: [UInt8] = []
        for part in [tokenEndpoint.absoluteString, clientID, scopes.joined(separator: " "), dpopThumbprint.map { "dpop " + $0 } ?? "bearer"] {
            if !input.isEmpty { input.append(0) }
            input += part.utf8
        }
        // SHA-256 of a short input cannot fail short of a broken OpenSSL; the input itself
        // (no secret in it) is the fallback, which still tells configurations apart.
        let digest = (try? SHA256Digest.hash(input)) ?? input
        return "v1:" + Base64URL.encode(digest)
    }

    /// Requests a new access token. A `previous` set acquired for this configuration
    /// (``accepts(_:)``) lends its DPoP key and metadata; any other is replaced outright (a new
    /// DPoP key is made when `dpop` is on).
    public func acquire(replacing previous: TokenSet?) async throws(AuthError) -> TokenSet {
        let previous = previous.flatMap { accepts($0) ? $0 : nil }
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
        var metadata = previous?.metadata ?? [:]
        metadata[Self.bindingMetadataKey] = binding(dpopThumbprint: dpopKey?.thumbprint)
        let base = TokenSet(accessToken: "", tokenType: nil, metadata: metadata, dpopKey: storedKey)
        let expectation = TokenResponseAdmission.Expectation(
            grant: .clientCredentials, dpop: dpopKey != nil,
            idToken: IDTokenExpectation(issuer: idTokenIssuer, clientID: clientID, nonce: nil, subject: nil, required: false),
            maxBytes: maxResponseBytes, assumedLifetime: assumedLifetime)
        do throws(AuthError) {
            let fresh = try await TokenResponseAdmission.admit(response, expectation, previous: base, now: clock.now, transport: client.transport)
            logger?.debug("token endpoint issued a client credentials token")
            return fresh
        } catch {
            logger?.info("token endpoint refused the client credentials grant", metadata: ["reason": "\(error.message)"])
            throw error
        }
    }

    /// The same as ``acquire(replacing:)``: client credentials are re-presented, not refreshed.
    public func refresh(_ tokenSet: TokenSet) async throws(AuthError) -> TokenSet {
        try await acquire(replacing: tokenSet)
    }
}
