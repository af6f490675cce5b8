import Foundation
import Hummingbird
import NIOCore
import TokenKit

/// The claims of every access token the reference servers issue.
public struct AccessClaims: Codable, Sendable {
    /// The issuer, e.g. `urn:tokenkit-examples:cleveroo`.
    public var iss: String
    /// The account id.
    public var sub: String
    /// The API the token is for.
    public var aud: String
    /// Issued at.
    public var iat: Date
    /// Expires at.
    public var exp: Date
    /// The account's role, e.g. `parent` or `child`.
    public var role: String
}

/// Signs ES256 access tokens with TokenKit's ``SigningKeySet`` and publishes its JWKS
/// document.
///
/// Guarantees: a fresh P-256 key per process (its `kid` is the key's RFC 7638 thumbprint,
/// set by `SigningKeySet`), tokens carrying `kid`, `iss`, `aud`, `sub`, `role`, `iat` and
/// `exp`, and a ``verifier`` that accepts only this set's keys, this issuer and this
/// audience, with no leeway. The private key never leaves the process: a restarted server
/// has a new key, so tokens from before a restart are refused (401) and clients refresh.
public struct AccessTokenIssuer: Sendable {
    /// The `iss` value.
    public let issuer: String
    /// The `aud` value.
    public let audience: String
    /// How long access tokens live.
    public let lifetime: Int
    /// The signing keys (one current key; no rotation while the process runs).
    public let keys: SigningKeySet
    /// `{"keys":[…]}` with the public key, from ``SigningKeySet/publicDocument()``.
    public let jwksJSON: String
    /// Checks tokens issued by this issuer (the set's verification keys).
    public let verifier: KeySourceVerifier

    /// Generates a signing key for `issuer`/`audience`; tokens live `lifetime` seconds.
    public init(issuer: String, audience: String, lifetime: Int) throws {
        let keys = try SigningKeySet(current: try JWTKey.generate(for: .es256), algorithm: .es256)
        self.issuer = issuer
        self.audience = audience
        self.lifetime = lifetime
        self.keys = keys
        self.jwksJSON = try keys.publicDocument()
        self.verifier = KeySourceVerifier(
            source: try keys.verificationKeys(), issuer: .exactly(issuer), audience: .exactly(audience),
            options: ValidationOptions(leeway: .zero))
    }

    /// A signed access token for `subject` with `role`, valid from now for ``lifetime`` seconds.
    public func issue(subject: String, role: String, now: Date = Date()) throws -> String {
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        return try keys.sign(AccessClaims(
            iss: issuer, sub: subject, aud: audience, iat: issuedAt,
            exp: issuedAt.addingTimeInterval(TimeInterval(lifetime)), role: role))
    }

    /// The `GET /.well-known/jwks.json` response: ``jwksJSON`` as `application/json`.
    public func jwksResponse() -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: jwksJSON)))
    }
}
