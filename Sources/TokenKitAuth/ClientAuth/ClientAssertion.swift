import Foundation
import TokenKit
internal import TokenKitCrypto

/// Builds RFC 7523 client assertions (`private_key_jwt`).
enum ClientAssertion {
    /// The `client_assertion_type` value for a JWT bearer assertion (RFC 7523 §2.2).
    static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// A signed assertion: `iss` = `sub` = `clientID`, `aud` = `audience` (the token endpoint
    /// URL), a 128-bit random `jti`, `iat` = `now`, `exp` = `now + lifetime`.
    static func make(
        signer: JWTSigner, clientID: String, audience: String, now: Date, lifetime: Int
    ) throws(AuthError) -> String {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        var claims = JSONObject()
        claims["iss"] = .string(clientID)
        claims["sub"] = .string(clientID)
        claims["aud"] = .string(audience)
        claims["jti"] = .string(try randomID())
        claims["iat"] = .number(JSONNumber(issuedAt))
        claims["exp"] = .number(JSONNumber(issuedAt + Int64(lifetime)))
        do {
            return try signer.sign(JWTClaims(claims))
        } catch {
            throw .invalidConfiguration("cannot sign the client assertion: \(error.reason)")
        }
    }

    /// 16 random bytes, base64url: a unique `jti` for assertions and DPoP proofs.
    static func randomID() throws(AuthError) -> String {
        do {
            return Base64URL.encode(try RandomBytes.generate(count: 16))
        } catch {
            throw .invalidConfiguration("the random generator failed: \(error.message)")
        }
    }
}
