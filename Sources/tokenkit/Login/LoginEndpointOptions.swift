import ArgumentParser
import Foundation
import TokenKitAuth

/// Where the authorization server is: `--issuer URL` (discovery), or the endpoints one by one.
/// Used by `tokenkit login`.
struct LoginEndpointOptions: ParsableArguments {
    @Option(help: "The issuer: its endpoints and keys are read from ISSUER/.well-known/openid-configuration (its issuer must match).")
    var issuer: String?

    @Option(name: .customLong("authorization-endpoint"), help: "The authorization endpoint (when no --issuer).")
    var authorizationEndpoint: String?

    @Option(name: .customLong("token-endpoint"), help: "The token endpoint (when no --issuer).")
    var tokenEndpoint: String?

    @Option(name: .customLong("device-authorization-endpoint"), help: "The RFC 8628 device authorization endpoint (overrides discovery).")
    var deviceAuthorizationEndpoint: String?

    @Option(name: .customLong("revocation-endpoint"), help: "The RFC 7009 revocation endpoint, used by logout (overrides discovery).")
    var revocationEndpoint: String?

    @Option(name: .customLong("client-id"), help: "The OAuth client id.")
    var clientID: String

    /// The login configuration: discovered from `--issuer`, else from the endpoint options; it
    /// records `authMethod` and the path of the client's secret or key file, `credentialFile`.
    func configuration(authMethod: String, credentialFile: String?, transport: any HTTPTransport) async throws -> LoginConfiguration {
        func url(_ text: String?, _ flag: String) throws -> URL? {
            guard let text else { return nil }
            guard let url = URL(string: text), url.scheme != nil else {
                throw CLIFailure.usage("\(flag) is not a valid URL")
            }
            return url
        }
        let device = try url(deviceAuthorizationEndpoint, "--device-authorization-endpoint")
        let revocation = try url(revocationEndpoint, "--revocation-endpoint")
        if let issuer {
            guard authorizationEndpoint == nil, tokenEndpoint == nil else {
                throw CLIFailure.usage("--issuer and --authorization-endpoint/--token-endpoint exclude each other")
            }
            var configuration = try await SignInDiscovery.configuration(issuer: issuer, clientID: clientID, authMethod: authMethod, transport: transport)
            if let device { configuration.deviceAuthorizationEndpoint = device }
            if let revocation { configuration.revocationEndpoint = revocation }
            return try LoginConfiguration(
                issuer: configuration.issuer, authorizationEndpoint: configuration.authorizationEndpoint,
                tokenEndpoint: configuration.tokenEndpoint, deviceAuthorizationEndpoint: configuration.deviceAuthorizationEndpoint,
                revocationEndpoint: configuration.revocationEndpoint, jwksURI: configuration.jwksURI,
                clientID: clientID, authMethod: authMethod, clientCredentialFile: credentialFile,
                requiresAuthorizationResponseIssuer: configuration.requiresAuthorizationResponseIssuer)
        }
        guard let token = try url(tokenEndpoint, "--token-endpoint") else {
            throw CLIFailure.usage("give --issuer, or --token-endpoint (with --authorization-endpoint or --device-authorization-endpoint)")
        }
        return try LoginConfiguration(
            authorizationEndpoint: try url(authorizationEndpoint, "--authorization-endpoint"), tokenEndpoint: token,
            deviceAuthorizationEndpoint: device, revocationEndpoint: revocation, clientID: clientID, authMethod: authMethod,
            clientCredentialFile: credentialFile)
    }
}
