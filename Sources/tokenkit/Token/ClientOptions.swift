import ArgumentParser
import Foundation
import TokenKit
import TokenKitAuth

/// `tokenkit token`'s grant and client-authentication options: `--grant`, `--issuer`,
/// `--client-key`, `--client-auth`, `--scope`, `--dpop`. Secrets and keys come from files, never argv.
struct ClientOptions: ParsableArguments {
    /// The `--grant` values.
    enum Grant: String, ExpressibleByArgument, CaseIterable {
        case refreshToken = "refresh-token"
        case clientCredentials = "client-credentials"
    }

    /// The `--client-auth` values for a client secret.
    enum SecretMethod: String, ExpressibleByArgument, CaseIterable {
        case basic
        case post
    }

    @Option(help: "refresh-token (default: refresh a stored login) or client-credentials (a service's own token, acquired and cached in the store).")
    var grant: Grant = .refreshToken

    @Option(help: "The issuer: the token endpoint is read from ISSUER/.well-known/openid-configuration (its issuer must match); instead of --token-endpoint.")
    var issuer: String?

    @Option(
        name: .customLong("client-key"),
        help: "A private key file (PEM or JWK) for private_key_jwt client authentication (RFC 7523).")
    var clientKey: String?

    @Option(
        name: .customLong("client-auth"),
        help: "How --client-secret-file is sent: basic (client_secret_basic, the default) or post (client_secret_post).")
    var clientAuth: SecretMethod?

    @Option(name: .customLong("scope"), help: "A scope to request (repeatable; client-credentials only).")
    var scopes: [String] = []

    @Flag(help: "Bind client-credentials tokens to a DPoP key (RFC 9449) kept in the store with them.")
    var dpop = false

    /// The client authentication for `secretFile` / `--client-key`; usage errors (64) for
    /// conflicting or missing options, I/O errors (2) for unreadable files.
    func authentication(secretFile: String?) throws -> ClientAuthentication {
        if clientKey != nil, secretFile != nil {
            throw CLIFailure(exitCode: ExitStatus.usage, message: "use either --client-secret-file or --client-key, not both")
        }
        if clientAuth != nil, secretFile == nil {
            throw CLIFailure(exitCode: ExitStatus.usage, message: "--client-auth needs --client-secret-file")
        }
        if grant != .clientCredentials, dpop || !scopes.isEmpty {
            throw CLIFailure(exitCode: ExitStatus.usage, message: "--dpop and --scope apply to --grant client-credentials only")
        }
        if let clientKey {
            let keys = try KeyLoading.keys(fromFile: clientKey, purpose: .sign).keys
            guard keys.count == 1, let key = keys.first, key.canSign, key.keyType != "oct" else {
                throw CLIFailure.io("the client key file \(clientKey) must hold exactly one asymmetric private key")
            }
            return try ClientAuthentication.privateKeyJWT(key: key)
        }
        guard let secretFile else {
            if grant == .clientCredentials {
                throw CLIFailure(exitCode: ExitStatus.usage, message: "--grant client-credentials needs --client-secret-file or --client-key")
            }
            return .none
        }
        let secret = try ClientSecretFile.read(secretFile)
        return clientAuth == .post ? .clientSecretPost(secret: secret) : .clientSecretBasic(secret: secret)
    }

    /// With `--issuer`: the discovered token endpoint and the client id (`--token-endpoint`
    /// excluded, `--client-id` required); without it `nil`. Discovery failures (network, a bad
    /// document, an issuer mismatch) exit 2.
    func discoveredTarget(tokenEndpoint: String?, clientID: String?, transport: any HTTPTransport) async throws -> (URL, String)? {
        guard let issuer else { return nil }
        guard tokenEndpoint == nil else {
            throw CLIFailure(exitCode: ExitStatus.usage, message: "--issuer and --token-endpoint exclude each other")
        }
        guard let clientID else { throw CLIFailure(exitCode: ExitStatus.usage, message: "--client-id is required with --issuer") }
        let configuration = try await SignInDiscovery.configuration(issuer: issuer, clientID: clientID, transport: transport)
        return (configuration.tokenEndpoint, clientID)
    }

    /// The grant for `endpoint` and `clientID`.
    func refresher(
        endpoint: URL, clientID: String, authentication: ClientAuthentication, transport: any HTTPTransport,
        requestTimeout: Duration, assumedLifetime: Duration
    ) throws -> any TokenRefresher {
        switch grant {
        case .refreshToken:
            return try OAuth2RefreshTokenGrant(
                tokenEndpoint: endpoint, clientID: clientID, clientAuthentication: authentication, transport: transport,
                requestTimeout: requestTimeout, assumedLifetime: assumedLifetime)
        case .clientCredentials:
            return try OAuth2ClientCredentialsGrant(
                tokenEndpoint: endpoint, clientID: clientID, clientAuthentication: authentication,
                scopes: scopes, dpop: dpop, transport: transport, requestTimeout: requestTimeout)
        }
    }
}
