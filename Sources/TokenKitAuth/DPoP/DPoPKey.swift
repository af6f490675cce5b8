import Foundation
import TokenKit
internal import TokenKitCrypto

/// The private key a login's tokens are bound to under DPoP (RFC 9449), and the proofs it signs.
///
/// Guarantees: the key is asymmetric and private (an HMAC secret or a public key is refused);
/// a proof's header carries `typ` `dpop+jwt`, the algorithm and the *public* JWK only
/// (`kty`, `crv`, `x`, `y` / `n`, `e`), never a private member. `description` never shows key
/// material. It does not: protect the key once it leaves this value — keep the JWK from
/// ``privateJWK()`` in a ``TokenKitStore/TokenStore`` (``TokenKitStore/TokenSet/dpopKey``).
public struct DPoPKey: Sendable, CustomStringConvertible {
    /// The JWS algorithm proofs are signed with.
    public let algorithm: JWTAlgorithm
    /// The RFC 7638 thumbprint of the public key (the `jkt` a server binds tokens to).
    public let thumbprint: String
    private let signer: JWTSigner
    private let publicJWK: JSONObject

    /// A new key for `algorithm` (default ES256, which every DPoP server must support).
    public static func generate(algorithm: JWTAlgorithm = .es256) throws(AuthError) -> DPoPKey {
        guard algorithm != .hs256, algorithm != .hs384, algorithm != .hs512 else {
            throw .invalidConfiguration("a DPoP key must be asymmetric (got \(algorithm))")
        }
        do {
            return try DPoPKey(key: JWTKey.generate(for: algorithm), algorithm: algorithm)
        } catch let error as AuthError {
            throw error
        } catch {
            throw .invalidConfiguration("cannot generate a DPoP key: \(error)")
        }
    }

    /// The key stored as a private JWK (as ``privateJWK()`` wrote it). The JWK must hold one
    /// algorithm (`alg`) or be an EC/OKP key whose curve implies it.
    public init(privateJWK json: String) throws(AuthError) {
        let key: JWTKey
        do { key = try JWTKey(jwk: json) } catch {
            throw .invalidConfiguration("the stored DPoP key is not a usable JWK: \(error.reason)")
        }
        guard let algorithm = JWTAlgorithm.all.first(where: key.algorithms.contains) else {
            throw .invalidConfiguration("the stored DPoP key allows no algorithm")
        }
        try self.init(key: key, algorithm: algorithm)
    }

    private init(key: JWTKey, algorithm: JWTAlgorithm) throws(AuthError) {
        guard key.keyType != "oct" else { throw .invalidConfiguration("a DPoP key must be asymmetric, not a shared secret") }
        guard key.canSign else { throw .invalidConfiguration("a DPoP key must be a private key") }
        do {
            let signer = try JWTSigner(key: key.withKeyID(nil), algorithm: algorithm)
            let full = try key.jwkObject()
            var visible = JSONObject()
            for name in ["kty", "crv", "x", "y", "n", "e"] where full[name] != nil { visible[name] = full[name] }
            self.signer = signer
            self.publicJWK = visible
            self.thumbprint = try key.thumbprint()
            self.algorithm = algorithm
        } catch {
            throw .invalidConfiguration("unusable DPoP key: \(error.reason)")
        }
    }

    /// The private key as JWK JSON text (holds the secret `d`): store it, never log it.
    public func privateJWK() throws(AuthError) -> String {
        do {
            return try signer.key.restricted(to: [algorithm]).jwk(includingPrivate: true)
        } catch {
            throw .invalidConfiguration("cannot export the DPoP key: \(error.reason)")
        }
    }

    /// A DPoP proof (RFC 9449 §4.2) for one request: `jti` random, `htm` = `method`, `htu` =
    /// `url` without query and fragment, `iat` = `now`, `ath` = base64url(SHA-256(token)) when
    /// `accessToken` is given, `nonce` when the server supplied one.
    public func proof(method: String, url: URL, accessToken: String? = nil, nonce: String? = nil, now: Date) throws(AuthError) -> String {
        var claims = JSONObject()
        claims["jti"] = .string(try ClientAssertion.randomID())
        claims["htm"] = .string(method)
        claims["htu"] = .string(try Self.targetURI(url))
        claims["iat"] = .number(JSONNumber(Int64(now.timeIntervalSince1970.rounded(.down))))
        if let accessToken { claims["ath"] = .string(try Self.accessTokenHash(accessToken)) }
        if let nonce { claims["nonce"] = .string(nonce) }
        do {
            return try signer.sign(JWTClaims(claims), header: JWTHeaderFields(type: "dpop+jwt", publicJWK: publicJWK))
        } catch {
            throw .invalidConfiguration("cannot sign the DPoP proof: \(error.reason)")
        }
    }

    /// `url` without query and fragment (the `htu` claim).
    static func targetURI(_ url: URL) throws(AuthError) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.host != nil,
              let text = { () -> String? in
                  components.query = nil
                  components.fragment = nil
                  return components.string
              }()
        else { throw .invalidConfiguration("a DPoP proof needs an absolute URL") }
        return text
    }

    /// base64url(SHA-256(ASCII(token))): the `ath` claim.
    static func accessTokenHash(_ token: String) throws(AuthError) -> String {
        do {
            return Base64URL.encode(try SHA256Digest.hash(Array(token.utf8)))
        } catch {
            throw .invalidConfiguration("SHA-256 failed: \(error.message)")
        }
    }

    /// `DPoPKey(<alg>, jkt <thumbprint>)`: no key material.
    public var description: String { "DPoPKey(\(algorithm), jkt \(thumbprint))" }
}
