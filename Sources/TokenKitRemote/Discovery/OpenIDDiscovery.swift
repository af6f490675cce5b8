import Foundation
import TokenKit

/// Fetches an issuer's OpenID discovery document over an ``HTTPTransport``.
///
/// Guarantees: the document is read from `ISSUER/.well-known/openid-configuration`
/// (OpenID Connect Discovery 1.0 §4; a trailing `/` of the issuer is not doubled) under
/// ``RemoteFetchOptions`` (https, or http only for loopback or by opt-in; same-origin
/// redirects only; a body cap; a timeout), only a `200` answer is accepted, and the
/// returned ``OpenIDProviderMetadata/issuer`` equals the configured issuer exactly.
///
/// It does not cache: keep the metadata you fetched (``RemoteJWKS`` reads it at its first
/// load and again once the document's own `Cache-Control: max-age` has passed). Errors are ``AuthError``s: ``AuthError/Code/invalidConfiguration`` for an
/// unusable issuer URL, ``AuthError/Code/network`` for transport failures, timeouts,
/// oversized bodies and refused redirects, ``AuthError/Code/invalidResponse`` for a bad
/// status or document, ``AuthError/Code/responseMismatch`` for a document of another issuer.
public struct OpenIDDiscovery: Sendable {
    /// The issuer identifier, exactly as configured (and as the tokens' `iss`).
    public let issuer: String
    /// Where the document is read from.
    public let configurationURL: URL
    private let transport: any HTTPTransport
    private let options: RemoteFetchOptions

    /// Prepares discovery for `issuer`.
    /// - Throws: ``AuthError/Code/invalidConfiguration`` when `issuer` is not an https URL
    ///   (http only for loopback or with ``RemoteFetchOptions/allowsInsecureHTTP``), or has
    ///   a query or fragment (OpenID Connect Core §2 forbids both).
    public init(issuer: String, transport: any HTTPTransport, options: RemoteFetchOptions = RemoteFetchOptions()) throws(AuthError) {
        guard let url = URL(string: issuer), let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .invalidConfiguration("issuer \"\(OpenIDProviderMetadata.shorten(issuer))\" is not a URL")
        }
        guard components.query == nil, components.fragment == nil else {
            throw .invalidConfiguration("issuer must not contain a query or fragment")
        }
        try GuardedFetch.validate(url, options: options, what: "issuer")
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        guard let configurationURL = URL(string: base + "/.well-known/openid-configuration") else {
            throw .invalidConfiguration("issuer \"\(OpenIDProviderMetadata.shorten(issuer))\" is not a URL")
        }
        self.issuer = issuer
        self.configurationURL = configurationURL
        self.transport = transport
        self.options = options
    }

    /// Fetches and checks the discovery document.
    public func fetch() async throws(AuthError) -> OpenIDProviderMetadata {
        try await fetchDocument().metadata
    }

    /// Fetches and checks the discovery document, with the answer's `Cache-Control` (for
    /// deciding when to read it again).
    func fetchDocument() async throws(AuthError) -> (metadata: OpenIDProviderMetadata, cacheControl: String?) {
        let fetched = try await GuardedFetch.get(
            configurationURL, headers: [HTTPHeader(name: "Accept", value: "application/json")],
            transport: transport, options: options, what: "discovery document")
        guard fetched.response.status == 200 else {
            throw OpenIDProviderMetadata.invalid("\(fetched.url.originForMessages) answered HTTP \(fetched.response.status)")
        }
        let metadata = try OpenIDProviderMetadata(json: fetched.response.body, expectedIssuer: issuer)
        return (metadata, fetched.response.headers.first(named: "Cache-Control"))
    }
}
