import Foundation
import TokenKitStore

/// Where a login came from: the issuer, its endpoints, the client id and how the client
/// authenticates. Stored with the token set (in ``TokenSet/metadata``, under `login.*` keys) so
/// that refreshing, printing a token or signing out later needs nothing repeated.
///
/// Guarantees: holds no secret (a client secret or private key stays in its file; only the
/// file's path is kept, in ``clientCredentialFile``); every endpoint it
/// accepts is `https`, or `http` on a loopback address, and has no user info or fragment.
/// It does not prove the endpoints belong to the issuer: that is discovery's job.
public struct LoginConfiguration: Sendable, Equatable {
    /// The issuer identifier (`iss` of ID tokens, RFC 9207 `iss`), when known.
    public var issuer: String?
    /// Where the browser is sent (authorization code flow).
    public var authorizationEndpoint: URL?
    /// Where codes, device codes and refresh tokens are exchanged.
    public var tokenEndpoint: URL
    /// The RFC 8628 device authorization endpoint, when known.
    public var deviceAuthorizationEndpoint: URL?
    /// The RFC 7009 revocation endpoint, when known.
    public var revocationEndpoint: URL?
    /// The issuer's JWKS (to verify ID tokens), when known.
    public var jwksURI: URL?
    /// The OAuth client id.
    public var clientID: String
    /// The client authentication method name (`"none"`, `"client_secret_basic"`, …).
    public var authMethod: String
    /// The absolute path of the file holding the client secret or the `private_key_jwt` key,
    /// when the login was made with one: read again (with the same permission checks) when
    /// the login is refreshed or revoked. Never the secret or key itself.
    public var clientCredentialFile: String?
    /// Whether the authorization response must carry RFC 9207 `iss` (discovery said
    /// `authorization_response_iss_parameter_supported`): a callback without it is then
    /// refused. Used while signing in; not stored with the login.
    public var requiresAuthorizationResponseIssuer: Bool

    /// The issuer and JWKS that ID tokens of this login are validated with, when both are known.
    public var idTokenIssuer: IDTokenIssuer? {
        guard let issuer, let jwksURI else { return nil }
        return try? IDTokenIssuer(issuer: issuer, jwksURI: jwksURI)
    }

    /// Creates a configuration; throws ``AuthError/Code/invalidConfiguration`` naming an unsafe
    /// endpoint or an empty client id.
    public init(
        issuer: String? = nil, authorizationEndpoint: URL? = nil, tokenEndpoint: URL,
        deviceAuthorizationEndpoint: URL? = nil, revocationEndpoint: URL? = nil, jwksURI: URL? = nil,
        clientID: String, authMethod: String = "none", clientCredentialFile: String? = nil,
        requiresAuthorizationResponseIssuer: Bool = false
    ) throws(AuthError) {
        guard !clientID.isEmpty else { throw .invalidConfiguration("client id must not be empty") }
        for (name, url) in [
            ("authorization endpoint", authorizationEndpoint), ("token endpoint", tokenEndpoint),
            ("device authorization endpoint", deviceAuthorizationEndpoint),
            ("revocation endpoint", revocationEndpoint), ("jwks_uri", jwksURI),
        ] {
            guard let url else { continue }
            do { try TokenEndpoint.validate(url) } catch {
                throw .invalidConfiguration(error.message.replacingOccurrences(of: "token endpoint", with: name))
            }
        }
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.jwksURI = jwksURI
        self.clientID = clientID
        self.authMethod = authMethod
        self.clientCredentialFile = clientCredentialFile
        self.requiresAuthorizationResponseIssuer = requiresAuthorizationResponseIssuer
    }

    /// The metadata keys used in a stored token set.
    enum Key {
        static let issuer = "login.issuer"
        static let authorizationEndpoint = "login.authorization_endpoint"
        static let tokenEndpoint = "login.token_endpoint"
        static let deviceAuthorizationEndpoint = "login.device_authorization_endpoint"
        static let revocationEndpoint = "login.revocation_endpoint"
        static let jwksURI = "login.jwks_uri"
        static let clientID = "login.client_id"
        static let authMethod = "login.auth_method"
        static let clientCredentialFile = "login.client_credential_file"
    }

    /// The configuration stored in `tokenSet`, or `nil` when it holds none (a token set put
    /// there by hand). Throws ``AuthError/Code/invalidConfiguration`` for a damaged one.
    public init?(storedIn tokenSet: TokenSet) throws(AuthError) {
        let m = tokenSet.metadata
        guard let token = m[Key.tokenEndpoint], let clientID = m[Key.clientID] else { return nil }
        func url(_ key: String) throws(AuthError) -> URL? {
            guard let text = m[key] else { return nil }
            guard let url = URL(string: text) else { throw .invalidConfiguration("stored \(key) is not a URL") }
            return url
        }
        guard let tokenEndpoint = try url(Key.tokenEndpoint) else {
            throw .invalidConfiguration("stored \(Key.tokenEndpoint) \(token.isEmpty ? "is empty" : "is not a URL")")
        }
        try self.init(
            issuer: m[Key.issuer], authorizationEndpoint: try url(Key.authorizationEndpoint),
            tokenEndpoint: tokenEndpoint, deviceAuthorizationEndpoint: try url(Key.deviceAuthorizationEndpoint),
            revocationEndpoint: try url(Key.revocationEndpoint), jwksURI: try url(Key.jwksURI),
            clientID: clientID, authMethod: m[Key.authMethod] ?? "none", clientCredentialFile: m[Key.clientCredentialFile])
    }

    /// `tokenSet` with this configuration written into its metadata (other keys kept).
    public func stored(in tokenSet: TokenSet) -> TokenSet {
        var copy = tokenSet
        let values: [(String, String?)] = [
            (Key.issuer, issuer), (Key.authorizationEndpoint, authorizationEndpoint?.absoluteString),
            (Key.tokenEndpoint, tokenEndpoint.absoluteString),
            (Key.deviceAuthorizationEndpoint, deviceAuthorizationEndpoint?.absoluteString),
            (Key.revocationEndpoint, revocationEndpoint?.absoluteString), (Key.jwksURI, jwksURI?.absoluteString),
            (Key.clientID, clientID), (Key.authMethod, authMethod), (Key.clientCredentialFile, clientCredentialFile),
        ]
        for (key, value) in values { copy.metadata[key] = value }
        return copy
    }
}
