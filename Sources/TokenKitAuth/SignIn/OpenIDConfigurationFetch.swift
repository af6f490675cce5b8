import Foundation
import TokenKit

/// Minimal OpenID discovery for sign-in: reads `<issuer>/.well-known/openid-configuration`
/// and checks that its `issuer` is exactly the one asked for (OpenID Connect Discovery §4.3),
/// and fetches the issuer's JWKS.
///
/// Kept small on purpose: the full discovery client and the caching remote JWKS key source
/// belong to TokenKitAuth's discovery module; sign-in only needs one fetch per login.
enum OpenIDConfigurationFetch {
    /// The login configuration published by `issuer` for `clientID`.
    static func configuration(
        issuer: String, clientID: String, authMethod: String, transport: any HTTPTransport
    ) async throws(AuthError) -> LoginConfiguration {
        let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        guard let base = URL(string: trimmed), let url = URL(string: trimmed + "/.well-known/openid-configuration") else {
            throw .invalidConfiguration("the issuer is not a valid URL")
        }
        do { try TokenEndpoint.validate(base) } catch {
            throw .invalidConfiguration("the issuer must use https (http is allowed only for loopback addresses)")
        }
        let what = "the discovery document"
        let response = try await SignInTokenRequest.send(HTTPTransportRequest(url: url, headers: [HTTPHeader(name: "Accept", value: "application/json")]), "discovery", transport: transport)
        let document = try SignInJSON.object(response, what)
        guard try SignInJSON.text("issuer", in: document, what) == issuer else {
            throw AuthError(code: .responseMismatch, message: "the discovery document names another issuer than \(issuer)")
        }
        guard let token = try SignInJSON.endpoint("token_endpoint", in: document, what) else {
            throw .invalidResponse("\(what) has no \"token_endpoint\"")
        }
        return try LoginConfiguration(
            issuer: issuer,
            authorizationEndpoint: try SignInJSON.endpoint("authorization_endpoint", in: document, what),
            tokenEndpoint: token,
            deviceAuthorizationEndpoint: try SignInJSON.endpoint("device_authorization_endpoint", in: document, what),
            revocationEndpoint: try SignInJSON.endpoint("revocation_endpoint", in: document, what),
            jwksURI: try SignInJSON.endpoint("jwks_uri", in: document, what),
            clientID: clientID, authMethod: authMethod)
    }

    /// The issuer's keys, fetched once from `jwksURI`.
    static func keys(_ jwksURI: URL, transport: any HTTPTransport) async throws(AuthError) -> JWKSet {
        let response = try await SignInTokenRequest.send(HTTPTransportRequest(url: jwksURI), "fetching the issuer's JWKS", transport: transport)
        guard response.status == 200, response.body.count <= 256 * 1024, let text = String(validating: response.body, as: UTF8.self) else {
            throw .invalidResponse("the issuer's JWKS could not be read (HTTP \(response.status))")
        }
        do { return try JWKSet(json: text) } catch {
            throw .invalidResponse("the issuer's JWKS is not usable: \(error.description)")
        }
    }
}

/// Discovery for sign-in front ends (the CLI): the ``LoginConfiguration`` an issuer publishes.
public enum SignInDiscovery {
    /// Reads `<issuer>/.well-known/openid-configuration` (its `issuer` must equal `issuer`
    /// exactly, else ``AuthError/Code/responseMismatch``) into a configuration for `clientID`.
    public static func configuration(
        issuer: String, clientID: String, authMethod: String = "none", transport: any HTTPTransport
    ) async throws(AuthError) -> LoginConfiguration {
        try await OpenIDConfigurationFetch.configuration(issuer: issuer, clientID: clientID, authMethod: authMethod, transport: transport)
    }
}
