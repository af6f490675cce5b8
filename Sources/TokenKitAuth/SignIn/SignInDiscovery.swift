import Foundation
import TokenKit

/// Discovery for sign-in front ends (the CLI): the ``LoginConfiguration`` an issuer publishes,
/// read through the one discovery client, ``OpenIDDiscovery`` (https, or http only on a
/// loopback address; same-origin redirects; a body cap; a timeout; the document's `issuer`
/// equal to the one asked for, byte for byte). When the document says
/// `authorization_response_iss_parameter_supported`, the configuration requires RFC 9207
/// `iss` in the authorization response.
public enum SignInDiscovery {
    /// Reads `<issuer>/.well-known/openid-configuration` into a configuration for `clientID`.
    ///
    /// Errors: ``AuthError/Code/responseMismatch`` when the document names another issuer
    /// (a mix-up: the sign-in is refused); ``AuthError/Code/invalidConfiguration`` for an
    /// unusable issuer URL or an unsafe endpoint; ``AuthError/Code/invalidResponse`` for a
    /// bad document or one without a `token_endpoint`; ``AuthError/Code/network`` for
    /// transport failures and timeouts. By default the document has 30 s (the token
    /// requests' total deadline), not the 10 s a service's background key refresh gets: a
    /// sign-in fetches it once, while the user waits anyway.
    public static func configuration(
        issuer: String, clientID: String, authMethod: String = "none", transport: any HTTPTransport,
        options: RemoteFetchOptions = RemoteFetchOptions(timeout: .seconds(30))
    ) async throws(AuthError) -> LoginConfiguration {
        let metadata = try await OpenIDDiscovery(issuer: issuer, transport: transport, options: options).fetch()
        guard let token = metadata.tokenEndpoint else {
            throw .invalidResponse("the discovery document has no \"token_endpoint\"")
        }
        return try LoginConfiguration(
            issuer: metadata.issuer, authorizationEndpoint: metadata.authorizationEndpoint, tokenEndpoint: token,
            deviceAuthorizationEndpoint: metadata.deviceAuthorizationEndpoint, revocationEndpoint: metadata.revocationEndpoint,
            jwksURI: metadata.jwksURI, clientID: clientID, authMethod: authMethod,
            requiresAuthorizationResponseIssuer: metadata.authorizationResponseIssParameterSupported)
    }

    /// The issuer's keys, fetched once from `jwksURI` through ``RemoteJWKS`` (the same
    /// transport rules; public keys only). Failures are ``AuthError/Code/invalidResponse``.
    static func keys(_ jwksURI: URL, transport: any HTTPTransport) async throws(AuthError) -> JWKSet {
        let source = try RemoteJWKS(.url(jwksURI), transport: transport)
        do { return try await source.keySet() } catch {
            throw .invalidResponse("the issuer's JWKS could not be used: \(error.reason)")
        }
    }
}
