import ArgumentParser
import Foundation
import TokenKit
import TokenKitAuth

/// `tokenkit token`'s grant options: `--grant`, `--issuer`, `--scope`, `--dpop` (the client
/// authentication flags are the shared ``ClientAuthOptions``).
struct ClientOptions: ParsableArguments {
    /// The `--grant` values.
    enum Grant: String, ExpressibleByArgument, CaseIterable {
        case refreshToken = "refresh-token"
        case clientCredentials = "client-credentials"
    }

    @Option(help: "refresh-token (default: refresh a stored login) or client-credentials (a service's own token, acquired and cached in the store).")
    var grant: Grant = .refreshToken

    @Option(help: "The issuer: the token endpoint is read from ISSUER/.well-known/openid-configuration (its issuer must match); instead of --token-endpoint.")
    var issuer: String?

    @Option(name: .customLong("scope"), help: "A scope to request (repeatable; client-credentials only).")
    var scopes: [String] = []

    @Flag(help: "Bind client-credentials tokens to a DPoP key (RFC 9449) kept in the store with them.")
    var dpop = false

    /// Refuses options that do not fit the grant (exit 64): `--dpop` and `--scope` outside
    /// client credentials, client credentials without a secret or key.
    func checkUsage(clientAuth: ClientAuthOptions) throws {
        if grant != .clientCredentials, dpop || !scopes.isEmpty {
            throw CLIFailure.usage("--dpop and --scope apply to --grant client-credentials only")
        }
        if grant == .clientCredentials, !clientAuth.given {
            throw CLIFailure.usage("--grant client-credentials needs --client-secret-file or --client-key")
        }
    }

    /// With `--issuer`: the discovered token endpoint, the client id (`--token-endpoint`
    /// excluded, `--client-id` required) and the issuer ID tokens are validated with; without
    /// it `nil`. A document naming another issuer exits 1 (as in `tokenkit login`); other
    /// discovery failures (network, a bad document) exit 2.
    func discoveredTarget(tokenEndpoint: String?, clientID: String?, transport: any HTTPTransport) async throws -> (URL, String, IDTokenIssuer?)? {
        guard let issuer else { return nil }
        guard tokenEndpoint == nil else {
            throw CLIFailure.usage("--issuer and --token-endpoint exclude each other")
        }
        guard let clientID else { throw CLIFailure.usage("--client-id is required with --issuer") }
        let configuration = try await SignInDiscovery.configuration(issuer: issuer, clientID: clientID, transport: transport)
        return (configuration.tokenEndpoint, clientID, configuration.idTokenIssuer)
    }

    /// The grant for `endpoint` and `clientID`; an ID token in its answers is validated with
    /// `idTokenIssuer` (the refresh grant falls back to the issuer stored with the login).
    func refresher(
        endpoint: URL, clientID: String, authentication: ClientAuthentication, transport: any HTTPTransport,
        requestTimeout: Duration, assumedLifetime: Duration, idTokenIssuer: IDTokenIssuer?
    ) throws -> any TokenRefresher {
        switch grant {
        case .refreshToken:
            return try OAuth2RefreshTokenGrant(
                tokenEndpoint: endpoint, clientID: clientID, clientAuthentication: authentication, transport: transport,
                requestTimeout: requestTimeout, assumedLifetime: assumedLifetime, idTokenIssuer: idTokenIssuer)
        case .clientCredentials:
            return try OAuth2ClientCredentialsGrant(
                tokenEndpoint: endpoint, clientID: clientID, clientAuthentication: authentication,
                scopes: scopes, dpop: dpop, transport: transport, requestTimeout: requestTimeout,
                assumedLifetime: assumedLifetime, idTokenIssuer: idTokenIssuer)
        }
    }
}
