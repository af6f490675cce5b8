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

/// Signs ES256 access tokens with a `kid` and publishes the matching JWKS.
///
/// Guarantees: a fresh P-256 key per process (its `kid` is the key's RFC 7638 thumbprint),
/// tokens carrying `iss`, `aud`, `sub`, `role`, `iat` and `exp`, and a ``verifier`` that
/// accepts only this key, this issuer and this audience, with no leeway. The private key
/// never leaves the process: a restarted server has a new key, so tokens from before a
/// restart are refused (401) and clients refresh.
public struct AccessTokenIssuer: Sendable {
    /// The `iss` value.
    public let issuer: String
    /// The `aud` value.
    public let audience: String
    /// How long access tokens live.
    public let lifetime: Int
    /// The `kid` of the signing key.
    public let keyID: String
    /// `{"keys":[…]}` with the public key.
    public let jwksJSON: String
    /// Checks tokens issued by this issuer.
    public let verifier: JWTVerifier
    private let signer: JWTSigner

    /// Generates a signing key for `issuer`/`audience`; tokens live `lifetime` seconds.
    public init(issuer: String, audience: String, lifetime: Int) throws {
        let generated = try JWTKey.generate(for: .es256)
        let kid = try generated.thumbprint()
        let key = generated.withKeyID(kid)
        let publicKey = try key.publicKey()
        self.issuer = issuer
        self.audience = audience
        self.lifetime = lifetime
        self.keyID = kid
        self.jwksJSON = "{\"keys\":[\(try publicKey.jwk())]}"
        self.signer = try JWTSigner(key: key)
        self.verifier = JWTVerifier(
            keys: JWKSet(keys: [publicKey]),
            options: ValidationOptions(leeway: 0, issuers: [issuer], audiences: [audience]))
    }

    /// A signed access token for `subject` with `role`, valid from now for ``lifetime`` seconds.
    public func issue(subject: String, role: String, now: Date = Date()) throws -> String {
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        return try signer.sign(
            AccessClaims(iss: issuer, sub: subject, aud: audience, iat: issuedAt,
                         exp: issuedAt.addingTimeInterval(TimeInterval(lifetime)), role: role),
            header: JWTHeaderFields(keyID: keyID))
    }

    /// The `GET /.well-known/jwks.json` response: ``jwksJSON`` as `application/json`.
    public func jwksResponse() -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: jwksJSON)))
    }
}
