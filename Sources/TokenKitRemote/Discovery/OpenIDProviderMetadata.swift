import Foundation
import TokenKit
internal import TokenKitPrimitives

/// An OpenID Provider's discovery document (OpenID Connect Discovery 1.0 §3, RFC 8414),
/// decoded and checked.
///
/// Guarantees: ``issuer`` equals the issuer it was fetched for, byte for byte (no trailing
/// slash, case or Unicode normalisation); every endpoint present is an absolute URL with a
/// host; every list is an array of strings; ``authorizationResponseIssParameterSupported``
/// is a JSON boolean. A member of the wrong type is an error naming the member, never
/// silently ignored. Unknown members stay in ``raw``.
///
/// It does not check endpoint schemes (callers that send credentials check those, e.g. the
/// token endpoint must be https) and does not fetch anything.
public struct OpenIDProviderMetadata: Sendable {
    /// `issuer`, equal to the configured issuer.
    public let issuer: String
    /// `jwks_uri`: where the provider publishes its signing keys.
    public let jwksURI: URL?
    /// `authorization_endpoint`.
    public let authorizationEndpoint: URL?
    /// `token_endpoint`.
    public let tokenEndpoint: URL?
    /// `device_authorization_endpoint` (RFC 8628).
    public let deviceAuthorizationEndpoint: URL?
    /// `revocation_endpoint` (RFC 7009).
    public let revocationEndpoint: URL?
    /// `userinfo_endpoint`.
    public let userinfoEndpoint: URL?
    /// `code_challenge_methods_supported` (RFC 7636), e.g. `["S256"]`; empty when absent.
    public let codeChallengeMethodsSupported: [String]
    /// `token_endpoint_auth_methods_supported`; empty when absent (the spec's default is
    /// `client_secret_basic`).
    public let tokenEndpointAuthMethodsSupported: [String]
    /// `dpop_signing_alg_values_supported` (RFC 9449); empty when absent.
    public let dpopSigningAlgValuesSupported: [String]
    /// `id_token_signing_alg_values_supported`; empty when absent.
    public let idTokenSigningAlgValuesSupported: [String]
    /// `authorization_response_iss_parameter_supported` (RFC 9207); `false` when absent.
    public let authorizationResponseIssParameterSupported: Bool
    /// Every member of the document.
    public let raw: JSONObject

    /// Decodes a discovery document and checks it belongs to `expectedIssuer`.
    ///
    /// - Throws: ``AuthError`` naming the problem: ``AuthError/Code/responseMismatch`` when
    ///   `issuer` differs from `expectedIssuer` (a mix-up, not a malformed document);
    ///   ``AuthError/Code/invalidResponse`` when it is not a JSON object, `issuer` is missing,
    ///   or a member has the wrong type.
    public init(json bytes: [UInt8], expectedIssuer: String) throws(AuthError) {
        let value: JSONValue
        do { value = try JSONValue(parsingBytes: bytes, maxDepth: 8) } catch {
            throw Self.invalid("not valid JSON (\(error.reason))")
        }
        guard let object = value.objectValue else { throw Self.invalid("not a JSON object") }
        guard let issuer = object["issuer"]?.stringValue else { throw Self.invalid("\"issuer\" is missing or not a string") }
        guard issuer.isByteIdentical(to: expectedIssuer) else {
            throw AuthError(
                code: .responseMismatch,
                message: "invalid discovery document: \"issuer\" is \"\(Self.shorten(issuer))\", expected exactly \"\(Self.shorten(expectedIssuer))\"")
        }
        self.issuer = issuer
        jwksURI = try Self.url(object, "jwks_uri")
        authorizationEndpoint = try Self.url(object, "authorization_endpoint")
        tokenEndpoint = try Self.url(object, "token_endpoint")
        deviceAuthorizationEndpoint = try Self.url(object, "device_authorization_endpoint")
        revocationEndpoint = try Self.url(object, "revocation_endpoint")
        userinfoEndpoint = try Self.url(object, "userinfo_endpoint")
        codeChallengeMethodsSupported = try Self.strings(object, "code_challenge_methods_supported")
        tokenEndpointAuthMethodsSupported = try Self.strings(object, "token_endpoint_auth_methods_supported")
        dpopSigningAlgValuesSupported = try Self.strings(object, "dpop_signing_alg_values_supported")
        idTokenSigningAlgValuesSupported = try Self.strings(object, "id_token_signing_alg_values_supported")
        if let flag = object["authorization_response_iss_parameter_supported"] {
            guard let bool = flag.boolValue else {
                throw Self.invalid("\"authorization_response_iss_parameter_supported\" must be a boolean")
            }
            authorizationResponseIssParameterSupported = bool
        } else {
            authorizationResponseIssParameterSupported = false
        }
        raw = object
    }

    static func invalid(_ why: String) -> AuthError {
        AuthError(code: .invalidResponse, message: "invalid discovery document: \(why)")
    }

    private static func url(_ object: JSONObject, _ name: String) throws(AuthError) -> URL? {
        guard let value = object[name] else { return nil }
        guard let text = value.stringValue else { throw invalid("\"\(name)\" must be a string") }
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty, let host = url.host, !host.isEmpty else {
            throw invalid("\"\(name)\" is not an absolute URL with a host")
        }
        return url
    }

    private static func strings(_ object: JSONObject, _ name: String) throws(AuthError) -> [String] {
        guard let value = object[name] else { return [] }
        guard let list = value.arrayValue else { throw invalid("\"\(name)\" must be an array of strings") }
        let strings = list.compactMap(\.stringValue)
        guard strings.count == list.count else { throw invalid("\"\(name)\" must be an array of strings") }
        return strings
    }

    static func shorten(_ text: String) -> String {
        text.count <= 120 ? text : String(text.prefix(117)) + "..."
    }
}
